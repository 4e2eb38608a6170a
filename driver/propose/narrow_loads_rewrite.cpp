// vectorize_narrow_loads: a kernel written one thread per item that reads bytes (or 2-byte
// words) one a thread issues a load per 32 bytes a warp; with four adjacent items a thread, one
// 4-byte (8-byte) load brings a thread's four elements and a warp reads 128 (256) bytes at once.
// Each item still runs the original body, in order, with its element taken from the vector.
#include <array>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "driver/propose/detail/rewrites.h"
#include "driver/propose/detail/text_edits.h"
#include "driver/propose/detail/thread_index.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"

namespace optiml::propose {
namespace {

// The vector of four elements for a narrow element type, and its size in bytes; "" otherwise.
// A 2-byte floating type (__half) would need its bits reinterpreted, not converted: not taken.
std::pair<std::string, int> vector_of_four(const std::string& element) {
    static const std::set<std::string> bytes = {"char", "signed char", "unsigned char", "int8_t",
                                                "uint8_t"};
    static const std::set<std::string> words = {"short",          "short int", "signed short",
                                                "unsigned short", "int16_t",   "unsigned short int",
                                                "uint16_t"};
    if (bytes.contains(element)) return {"uchar4", 4};
    if (words.contains(element)) return {"ushort4", 8};
    return {"", 0};
}

// Tokens from which on code runs for some items only: the vector is read for every item below
// the bound, so the original must have read each of them too, before any of these. The
// condition of an `if`, `while` or `switch` is still read by every item: those branch at its `)`.
constexpr std::array<std::string_view, 14> kBranches = {
    "if", "else", "?",      "for",   "while",    "do",   "switch",
    "&&", "||",   "return", "break", "continue", "goto", "case"};

// One narrow pointer the body reads only as `p[i]`.
struct NarrowStream {
    std::string pointer, element, vector, copy;
    int bytes = 0;
    std::vector<std::size_t> reads;  // code tokens of each `p`
};

// Where the body from `after` on first branches: every read before it runs for every item.
std::size_t first_branch(std::string_view source, const std::vector<source::Token>& code,
                         std::size_t after, std::size_t close) {
    for (std::size_t i = after; i < close; ++i) {
        const std::string_view w = token_at(source, code, i);
        if (!is_one_of(w, kBranches)) continue;
        const bool condition =
            (w == "if" || w == "while" || w == "switch") && token_at(source, code, i + 1) == "(";
        return condition ? source::matching_bracket(code, source, i + 1) : i;
    }
    return close;
}

// The narrow pointer parameters the body reads only as `p[i]`, each read in (after, branch).
std::vector<NarrowStream> narrow_streams(std::string_view source,
                                         const std::vector<source::Token>& code,
                                         const source::KernelText& text, const std::string& index,
                                         std::size_t open, std::size_t close, std::size_t after,
                                         std::size_t branch, std::set<std::string>& taken) {
    const auto word = [&](std::size_t i) { return token_at(source, code, i); };
    std::vector<NarrowStream> streams;
    for (const source::KernelParameter& p : text.parameters) {
        if (!p.is_pointer || p.name.empty()) continue;
        NarrowStream stream{p.name, pointee_type(source, p), "", "", 0, {}};
        std::tie(stream.vector, stream.bytes) = vector_of_four(stream.element);
        if (stream.bytes == 0) continue;
        bool only_reads = true;
        for (std::size_t i = open + 1; i < close && only_reads; ++i) {
            if (word(i) != p.name || word(i - 1) == "." || word(i - 1) == "->") continue;
            only_reads = i > after && i < branch && word(i + 1) == "[" && word(i + 2) == index &&
                         word(i + 3) == "]" && word(i - 1) != "&" &&
                         !is_one_of(word(i + 4), kAssignmentOperators) && word(i + 4) != "++" &&
                         word(i + 4) != "--" && word(i - 1) != "++" && word(i - 1) != "--";
            stream.reads.push_back(i);
        }
        if (!only_reads || stream.reads.empty()) continue;
        stream.copy = fresh_name(source, "optiml_" + p.name, taken);
        taken.insert(stream.copy);
        streams.push_back(std::move(stream));
    }
    return streams;
}

// Each stream's four elements from one vector load at quad `quad`, in a const array `copy`.
std::string vector_loads(std::string_view source, const std::vector<NarrowStream>& streams,
                         const std::string& quad, std::set<std::string>& taken) {
    const std::array<std::string_view, 4> lanes = {"x", "y", "z", "w"};
    std::string out;
    for (const NarrowStream& s : streams) {
        const std::string loaded = fresh_name(source, s.copy + "_vector", taken);
        taken.insert(loaded);
        out += " const " + s.vector + " " + loaded + " = *reinterpret_cast<const " + s.vector +
               "*>(" + s.pointer + " + " + quad + " * 4ll); const " + s.element + " " + s.copy +
               "[4] = {";
        for (std::size_t lane = 0; lane < lanes.size(); ++lane)
            out += std::string(lane ? ", " : "") + "static_cast<" + s.element + ">(" + loaded +
                   "." + std::string(lanes[lane]) + ")";
        out += "};";
    }
    return out;
}

}  // namespace

std::optional<std::string> vectorize_narrow_loads(std::string_view source,
                                                  std::string_view kernel) {
    const source::KernelText text = source::find_kernel(source, kernel);
    const std::vector<source::Token> code = source::code_tokens(source);
    const auto [open, close] = body_braces(code, text);
    if (close <= open) return std::nullopt;
    const auto items = find_item_kernel(source, code, text, open, close);
    if (!items || items->limit.empty()) return std::nullopt;
    const ThreadIndex& index = items->index;
    // Every read before the body first branches after the bound (its `return;` aside) ran for
    // every item below the bound, so the four elements a vector reads exist.
    const std::size_t after = items->condition_end + (items->returns ? 3 : 1);
    const std::size_t branch = first_branch(source, code, after, close);
    std::set<std::string> taken;
    const std::vector<NarrowStream> streams =
        narrow_streams(source, code, text, index.name, open, close, after, branch, taken);
    // A directive would land inside the one line the misaligned path is written on.
    if (streams.empty() || has_directive(source, code, open, close)) return std::nullopt;
    const std::string quad = fresh_name(source, "optiml_quad", taken);
    taken.insert(quad);
    const std::string k = fresh_name(source, "optiml_k", taken);
    taken.insert(k);
    const std::string limit = range_text(source, code, items->limit);
    const std::string type(
        source.substr(code[index.statement].begin,
                      code[index.index.first - 2].begin - code[index.statement].begin));
    const std::string expression = range_text(source, code, index.index);
    // The thread's four items. Where all four lie below the bound and every pointer is aligned to
    // its vector, one load a pointer and the body as written, each read taken from the vector;
    // else (the last quad, a pointer that starts mid-word) each item as the original, on the line
    // of the body's closing brace.
    std::string prologue = type + quad + " = " + expression + "; if (" + quad + " <= ((" + limit +
                           ") - 1) / 4) { if (" + quad + " * 4ll + 3 < (" + limit + ")";
    for (const NarrowStream& s : streams)
        prologue += " && reinterpret_cast<unsigned long long>(" + s.pointer + ") % " +
                    std::to_string(s.bytes) + " == 0";
    prologue += ") {" + vector_loads(source, streams, quad, taken);
    const std::string each = "for (int " + k + " = 0; " + k + " < 4; ++" + k + ") { " + type +
                             index.name + " = " + quad + " * 4 + " + k + "; [&]() {";
    prologue += " " + each;
    std::vector<TextEdit> edits;
    edits.push_back({code[index.statement].begin,
                     code[index.semicolon].end - code[index.statement].begin, prologue});
    // There all four items lie below the bound: its test is settled.
    edits.push_back({code[items->check + 2].begin,
                     code[items->condition_end - 1].end - code[items->check + 2].begin,
                     items->returns ? "false" : "true"});
    for (const NarrowStream& s : streams)
        for (const std::size_t read : s.reads)
            edits.push_back(
                {code[read].begin, code[read + 3].end - code[read].begin, s.copy + "[" + k + "]"});
    edits.push_back({code[close].begin, 0,
                     "}(); } } else " + each + " " +
                         range_spelling(source, code, {index.semicolon + 1, close}) +
                         " }(); } } "});
    return apply_edits(source, std::move(edits));
}

}  // namespace optiml::propose
