#include "driver/propose/detail/thread_index.h"

#include <algorithm>
#include <array>

#include "driver/propose/detail/text_edits.h"

namespace optiml::propose {
namespace {

constexpr std::array<std::string_view, 5> kThreadBuiltins = {"threadIdx", "blockIdx", "blockDim",
                                                             "gridDim", "warpSize"};
constexpr std::array<std::string_view, 11> kDeclarationWords = {
    "const",  "int",  "unsigned", "long",     "short",   "signed",
    "size_t", "auto", "int64_t",  "uint32_t", "uint64_t"};
// The global thread index along x (parentheses around the product allowed).
constexpr std::array<std::string_view, 8> kGlobalIndex = {
    "blockIdx . x * blockDim . x + threadIdx . x",
    "blockDim . x * blockIdx . x + threadIdx . x",
    "threadIdx . x + blockIdx . x * blockDim . x",
    "threadIdx . x + blockDim . x * blockIdx . x",
    "( blockIdx . x * blockDim . x ) + threadIdx . x",
    "( blockDim . x * blockIdx . x ) + threadIdx . x",
    "threadIdx . x + ( blockIdx . x * blockDim . x )",
    "threadIdx . x + ( blockDim . x * blockIdx . x )"};

}  // namespace

bool is_thread_builtin(std::string_view source, const std::vector<source::Token>& code,
                       std::size_t i) {
    return i < code.size() && is_one_of(source::token_text(source, code[i]), kThreadBuiltins);
}

std::pair<std::size_t, std::size_t> body_braces(const std::vector<source::Token>& code,
                                                const source::KernelText& kernel) {
    std::size_t open = 0, close = 0;
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (code[i].begin == kernel.body_begin) open = i;
        if (code[i].end == kernel.body_end) close = i;
    }
    return {open, close};
}

std::optional<ThreadIndex> find_thread_index(std::string_view source,
                                             const std::vector<source::Token>& code,
                                             std::size_t open, std::size_t close) {
    const auto text = [&](std::size_t i) {
        return i < code.size() ? source::token_text(source, code[i]) : std::string_view();
    };
    std::optional<ThreadIndex> found;
    for (std::size_t next = open + 1; next < close;) {
        const std::size_t first = next;
        const std::size_t e = std::max(source::statement_end(code, source, first), first + 1);
        next = e;
        bool uses = false;
        for (std::size_t i = first; i < e && !uses; ++i) uses = is_thread_builtin(source, code, i);
        if (!uses) continue;
        if (found) return std::nullopt;  // a second statement uses them
        std::size_t eq = first;
        while (eq < e && text(eq) != "=") ++eq;
        if (eq + 2 > e || eq < first + 2 || text(e - 1) != ";") return std::nullopt;
        for (std::size_t i = first; i + 1 < eq; ++i)
            if (!is_one_of(text(i), kDeclarationWords)) return std::nullopt;
        if (code[eq - 1].kind != source::TokenKind::Identifier) return std::nullopt;
        std::size_t begin = eq + 1, end = e - 1;
        if (text(begin) == "(" && source::matching_bracket(code, source, begin) == end - 1) {
            ++begin;
            --end;
        }
        // Kernel Tuner's kernels name the block's width by its macro, which the spec launches
        // as blockDim.x: the same index.
        std::string spelled;
        for (std::size_t i = begin; i < end; ++i)
            spelled += (spelled.empty() ? "" : " ") +
                       std::string(text(i) == "block_size_x" ? "blockDim . x" : text(i));
        if (!is_one_of(spelled, kGlobalIndex)) return std::nullopt;
        found = ThreadIndex{std::string(text(eq - 1)), first, {eq + 1, e - 1}, e - 1};
    }
    return found;
}

}  // namespace optiml::propose
