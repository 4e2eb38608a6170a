// The .npy header: magic "\x93NUMPY", major and minor version, the header's length (2 bytes
// little-endian in version 1, 4 in versions 2 and 3), then a Python dict literal such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }. Only the literals numpy.save
// writes are accepted: strings, True/False and tuples of integers.
#include "driver/spec/npy_header.h"

#include <cctype>
#include <limits>

namespace optiml::spec {
namespace {

const char* const kNpyFix = "a file written by numpy.save (format version 1, 2 or 3)";

[[noreturn]] void malformed(const std::string& what) {
    throw DataFileError("malformed .npy header: " + what, kNpyFix);
}

// A cursor over the dict literal.
class DictReader {
  public:
    explicit DictReader(std::string_view text) : text_(text) {}

    void skip_blanks() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool accept(char c) {
        skip_blanks();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!accept(c)) malformed(std::string("expected '") + c + "' at offset " + where());
    }
    std::string string_literal() {
        skip_blanks();
        if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
            malformed("expected a quoted string at offset " + where());
        const char quote = text_[pos_++];
        const std::size_t end = text_.find(quote, pos_);
        if (end == std::string_view::npos) malformed("unterminated string");
        std::string value(text_.substr(pos_, end - pos_));
        pos_ = end + 1;
        return value;
    }
    bool boolean() {
        skip_blanks();
        for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
            if (text_.substr(pos_).starts_with(word)) {
                pos_ += std::string_view(word).size();
                return value;
            }
        }
        malformed("expected True or False at offset " + where());
    }
    std::vector<std::uint64_t> shape() {
        expect('(');
        std::vector<std::uint64_t> dims;
        while (!accept(')')) {
            skip_blanks();
            std::uint64_t value = 0;
            const std::size_t first = pos_;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                const auto digit = static_cast<std::uint64_t>(text_[pos_++] - '0');
                if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
                    malformed("a dimension does not fit 64 bits");
                value = value * 10 + digit;
            }
            if (pos_ == first) malformed("expected a dimension at offset " + where());
            dims.push_back(value);
            if (!accept(',')) {
                expect(')');
                break;
            }
        }
        return dims;
    }
    bool at_end() {
        skip_blanks();
        return pos_ == text_.size();
    }

  private:
    std::string where() const { return std::to_string(pos_); }
    std::string_view text_;
    std::size_t pos_ = 0;
};

std::uint64_t little_endian(std::string_view bytes, std::size_t offset, std::size_t width) {
    std::uint64_t value = 0;
    for (std::size_t i = width; i-- > 0;)
        value = (value << 8) | static_cast<unsigned char>(bytes[offset + i]);
    return value;
}

}  // namespace

std::uint64_t NpyHeader::element_count() const {
    std::uint64_t count = 1;
    for (const std::uint64_t dim : shape) {
        if (dim != 0 && count > std::numeric_limits<std::uint64_t>::max() / dim)
            malformed("the shape's product does not fit 64 bits");
        count *= dim;
    }
    return count;
}

NpyHeader parse_npy_header(std::string_view bytes) {
    constexpr std::string_view kMagic = "\x93NUMPY";
    if (!bytes.starts_with(kMagic))
        throw DataFileError("not a .npy file (it does not start with \"\\x93NUMPY\")", kNpyFix);
    if (bytes.size() < kMagic.size() + 2) malformed("the file ends inside the header");
    NpyHeader header;
    header.major_version = static_cast<unsigned char>(bytes[kMagic.size()]);
    if (header.major_version < 1 || header.major_version > 3)
        throw DataFileError(
            ".npy format version " + std::to_string(header.major_version) + " is not supported",
            kNpyFix);
    const std::size_t width = header.major_version == 1 ? 2 : 4;
    const std::size_t length_at = kMagic.size() + 2;
    if (bytes.size() < length_at + width) malformed("the file ends inside the header");
    const std::uint64_t length = little_endian(bytes, length_at, width);
    header.data_offset = length_at + width + static_cast<std::size_t>(length);
    if (bytes.size() < header.data_offset) malformed("the file ends inside the header");

    DictReader dict(bytes.substr(length_at + width, static_cast<std::size_t>(length)));
    bool has_descr = false, has_order = false, has_shape = false;
    dict.expect('{');
    while (!dict.accept('}')) {
        const std::string key = dict.string_literal();
        dict.expect(':');
        if (key == "descr") {
            header.descr = dict.string_literal();
            has_descr = true;
        } else if (key == "fortran_order") {
            header.fortran_order = dict.boolean();
            has_order = true;
        } else if (key == "shape") {
            header.shape = dict.shape();
            has_shape = true;
        } else {
            malformed("unknown key '" + key + "'");
        }
        if (!dict.accept(',')) {
            dict.expect('}');
            break;
        }
    }
    if (!dict.at_end()) malformed("text after the dictionary");
    if (!has_descr || !has_order || !has_shape)
        malformed("descr, fortran_order and shape must all be given");
    return header;
}

}  // namespace optiml::spec
