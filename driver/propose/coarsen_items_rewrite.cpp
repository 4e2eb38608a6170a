// coarsen_items: a kernel written one thread per item has each thread handle `factor` items, a
// block's worth apart (item k of block b is (b * factor + k) * blockDim.x + threadIdx.x), so a
// warp still reads consecutive items and the grid shrinks by `factor`. What a thread does per
// block (a privatized copy's merge) and its index arithmetic are amortized over the items.
#include <array>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "driver/propose/detail/loop_analysis.h"
#include "driver/propose/detail/rewrites.h"
#include "driver/propose/detail/text_edits.h"
#include "driver/propose/detail/thread_index.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::propose {
namespace {

// Where threads of a block or warp meet: an item moved to another thread would meet others.
constexpr std::array<std::string_view, 9> kCollectives = {
    "__syncthreads",  "__syncwarp",       "__shared__",    "__shfl_sync", "__shfl_xor_sync",
    "__shfl_up_sync", "__shfl_down_sync", "__ballot_sync", "__activemask"};

}  // namespace

std::optional<std::string> coarsen_items(std::string_view source, std::string_view kernel,
                                         int factor) {
    if (factor < 2)
        throw source::RewriteError("coarsen_items: factor " + std::to_string(factor) +
                                   " is below 2");
    const source::KernelText text = source::find_kernel(source, kernel);
    const std::vector<source::Token> code = source::code_tokens(source);
    const auto [open, close] = body_braces(code, text);
    if (close <= open) return std::nullopt;
    const auto index = find_thread_index(source, code, open, close);
    if (!index) return std::nullopt;
    const auto word = [&](std::size_t i) { return source::token_text(source, code[i]); };
    // Names declared before the index are shared by a thread's items: none may change after it,
    // nor the index itself (its items would no longer be those of the original threads).
    std::set<std::string> before;
    for (std::size_t i = open + 1; i < index->statement; ++i)
        if (code[i].kind == source::TokenKind::Identifier &&
            is_one_of(word(i - 1), kLocalTypeWords))
            before.insert(std::string(word(i)));
    before.insert(index->name);
    for (const source::KernelParameter& p : text.parameters) before.insert(p.name);
    // Items past the original grid must stop where the original's last threads did: the first
    // statement after the index compares it (`if (i >= n) return;`, `if (i < n) { ... }`).
    const std::size_t check = index->semicolon + 1;
    bool bounded = word(check) == "if" && check + 1 < close;
    if (bounded) {
        const std::size_t end = source::matching_bracket(code, source, check + 1);
        bounded = false;
        for (std::size_t i = check + 2; i + 1 < end && end < close; ++i) {
            const std::string_view t = word(i + 1);
            const bool compares = t == "<" || t == "<=" || t == ">" || t == ">=";
            if ((word(i) == index->name && compares) ||
                (word(i + 2) == index->name && compares && i + 2 < end))
                bounded = true;
        }
    }
    if (!bounded) return std::nullopt;
    for (std::size_t i = open + 1; i < close; ++i)
        if (is_one_of(word(i), kCollectives) || word(i) == "asm") return std::nullopt;
    for (std::size_t i = index->semicolon + 1; i < close; ++i) {
        const std::string_view t = word(i);
        const bool increment = t == "++" || t == "--";
        if (!increment && !is_one_of(t, kAssignmentOperators)) continue;
        const bool declared = i >= 2 && is_one_of(word(i - 2), kLocalTypeWords);
        // The name the operator changes: before it, or after a prefix ++/--.
        if (!declared && (before.contains(std::string(word(i - 1))) ||
                          (increment && before.contains(std::string(word(i + 1))))))
            return std::nullopt;
    }
    // The items of one thread run one after another, each in its own call, so that an early
    // `return` ends only that item. Prologue and epilogue on the lines they replace or end.
    std::set<std::string> taken;
    const std::string item = fresh_name(source, "optiml_item", taken);
    const std::string count = std::to_string(factor);
    const std::string declaration(
        source.substr(code[index->statement].begin,
                      code[index->index.first].begin - code[index->statement].begin));
    std::vector<TextEdit> edits;
    edits.push_back({code[index->statement].begin,
                     code[index->semicolon].end - code[index->statement].begin,
                     "for (int " + item + " = 0; " + item + " < " + count + "; ++" + item + ") { " +
                         declaration + "(blockIdx.x * " + count + "u + " + item +
                         ") * blockDim.x + threadIdx.x; [&]() {"});
    edits.push_back({code[close].begin, 0, "}(); } "});
    return apply_edits(source, std::move(edits));
}

}  // namespace optiml::propose
