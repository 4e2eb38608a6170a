#include "driver/codegen/detail/cpp_text.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace optiml::codegen {

namespace {

// One source line of `text` as a comment, wrapped at word boundaries within `width` columns.
void comment_line(std::string_view line, std::string_view indent, std::size_t width,
                  std::string& out) {
    std::string clean;
    for (const char c : line) clean += std::iscntrl(static_cast<unsigned char>(c)) ? ' ' : c;
    // A trailing backslash would splice the next source line into the comment.
    while (!clean.empty() && (clean.back() == '\\' || clean.back() == ' ')) clean.pop_back();
    const std::string prefix = "// " + std::string(indent);
    std::string current = prefix;
    bool has_word = false;
    std::size_t position = 0;
    while (position < clean.size()) {
        const std::size_t word_end = std::min(clean.find(' ', position), clean.size());
        const std::string_view word = std::string_view(clean).substr(position, word_end - position);
        position = word_end + 1;
        if (word.empty()) continue;
        if (has_word && current.size() + 1 + word.size() > width) {
            out += current + '\n';
            current = prefix + "  ";  // continuation lines are indented two more columns
        } else if (has_word) {
            current += ' ';
        }
        current += word;
        has_word = true;
    }
    while (!current.empty() && current.back() == ' ') current.pop_back();
    out += current + '\n';
}

}  // namespace

std::string comment(std::string_view text, std::string_view indent) {
    constexpr std::size_t width = 100;
    std::string out;
    std::size_t start = 0;
    do {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        comment_line(text.substr(start, end - start), indent, width, out);
        start = end + 1;
    } while (start < text.size());
    return out;
}

std::string string_literal(std::string_view text) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (byte < 0x20 || byte >= 0x7f || c == '?') {
            // Octal escapes take at most three digits, so a following digit cannot extend them
            // (hex escapes would); '?' is escaped against trigraphs in older dialects.
            out += '\\';
            out += digits[(byte >> 6) & 7];
            out += digits[(byte >> 3) & 7];
            out += digits[byte & 7];
        } else {
            out += c;
        }
    }
    out += '"';
    return out;
}

std::string hex_bytes(std::string_view bytes, bool nul_terminate, std::string_view indent) {
    static constexpr char digits[] = "0123456789abcdef";
    static constexpr std::size_t per_line = 16;
    const std::size_t total = bytes.size() + (nul_terminate ? 1 : 0);
    std::string out;
    out.reserve(total * 6 + (total / per_line + 1) * (indent.size() + 1));
    for (std::size_t i = 0; i < total; ++i) {
        const auto byte = i < bytes.size() ? static_cast<unsigned char>(bytes[i]) : 0u;
        out += i % per_line == 0 ? std::string(indent) : std::string(" ");
        out += "0x";
        out += digits[byte >> 4];
        out += digits[byte & 15];
        out += ',';
        if (i % per_line == per_line - 1 || i + 1 == total) out += '\n';
    }
    return out;
}

std::string identifier_from(std::string_view text) {
    std::string out;
    for (const char c : text) {
        out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
    }
    return out;
}

std::string long_long_literal(std::int64_t value) {
    if (value == std::numeric_limits<std::int64_t>::min()) return "(-9223372036854775807LL - 1LL)";
    if (value < 0) return "(-" + std::to_string(-value) + "LL)";
    return std::to_string(value) + "LL";
}

}  // namespace optiml::codegen
