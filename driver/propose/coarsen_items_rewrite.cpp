// coarsen_items: a kernel written one thread per item has each thread handle `factor` items, a
// block's worth apart (item k of block b is (b * factor + k) * blockDim.x + threadIdx.x), so a
// warp still reads consecutive items and the grid shrinks by `factor`. What a thread does per
// block (a privatized copy's merge) and its index arithmetic are amortized over the items.
#include <set>
#include <string>
#include <vector>

#include "driver/propose/detail/rewrites.h"
#include "driver/propose/detail/text_edits.h"
#include "driver/propose/detail/thread_index.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::propose {

std::optional<std::string> coarsen_items(std::string_view source, std::string_view kernel,
                                         int factor) {
    if (factor < 2)
        throw source::RewriteError("coarsen_items: factor " + std::to_string(factor) +
                                   " is below 2");
    const source::KernelText text = source::find_kernel(source, kernel);
    const std::vector<source::Token> code = source::code_tokens(source);
    const auto [open, close] = body_braces(code, text);
    if (close <= open) return std::nullopt;
    const auto items = find_item_kernel(source, code, text, open, close);
    if (!items) return std::nullopt;
    const ThreadIndex* index = &items->index;
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
