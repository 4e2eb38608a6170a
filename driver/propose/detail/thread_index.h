// The one global thread index a kernel written one thread per item computes:
// `int i = blockIdx.x * blockDim.x + threadIdx.x;` (in any of its orders, the product in
// parentheses or not; `block_size_x`, Kernel Tuner's macro of the block's width, for
// `blockDim.x`), a top-level statement of the body and the body's only use of the thread
// builtins (threadIdx, blockIdx, blockDim, gridDim, warpSize). The rewrites that change which
// thread does which item (a warp per row, thread coarsening) start from it.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "driver/propose/detail/loop_analysis.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"

namespace optiml::propose {

struct ThreadIndex {
    std::string name;           // `i`
    std::size_t statement = 0;  // code token starting the declaration
    TokenRange index;           // the expression after '='
    std::size_t semicolon = 0;  // code token of the declaration's ';'
};

// `code` holds every code token of `source`; `open` and `close` index the kernel body's braces.
// nullopt where the body has no such declaration, or uses the builtins anywhere else.
std::optional<ThreadIndex> find_thread_index(std::string_view source,
                                             const std::vector<source::Token>& code,
                                             std::size_t open, std::size_t close);

// Where threads of a block or warp meet: work moved from one thread to another would meet
// others (thread coarsening, register blocking).
inline constexpr std::array<std::string_view, 9> kCollectives = {
    "__syncthreads",  "__syncwarp",       "__shared__",    "__shfl_sync", "__shfl_xor_sync",
    "__shfl_up_sync", "__shfl_down_sync", "__ballot_sync", "__activemask"};

// Whether a preprocessor directive lies between the code tokens `open` and `close` (a body's
// braces): a rewrite that writes the body again on one line cannot carry it.
bool has_directive(std::string_view source, const std::vector<source::Token>& code,
                   std::size_t open, std::size_t close);

// A kernel written one thread per item whose items one thread can run one after another: the
// index, followed at once by an `if` that bounds it (`if (i < n) ...`, `if (i >= n) return;`),
// and no state the items would share (a parameter or a name declared before the index changed
// after it, the index changed, a barrier, shared memory, a shuffle, a vote or inline asm).
struct ItemKernel {
    ThreadIndex index;
    std::size_t check = 0;          // the bounding `if`
    std::size_t condition_end = 0;  // the `)` closing its condition
    // E where the whole condition is `i < E`, or `i >= E` and the `if` is `return;`: every
    // item below E runs what follows, every other none; empty for any other condition.
    TokenRange limit;
    bool returns = false;  // the `if (...) return;` form
};
std::optional<ItemKernel> find_item_kernel(std::string_view source,
                                           const std::vector<source::Token>& code,
                                           const source::KernelText& kernel, std::size_t open,
                                           std::size_t close);

// `T name = blockIdx.D * E + threadIdx.D;` for D = x or y (the product's and sum's terms in any
// order), E the block's extent along D: `blockDim.D`, or one name or number in its place (Kernel
// Tuner's `block_size_D`, a `TILE_DIM`). [s, e) are the statement's code tokens.
struct AxisIndex {
    std::string name;
    char axis = 0;
    std::string extent;  // E as written, without blanks
    std::string type;    // the declaration's words before the name, as written ("const int ")
};
std::optional<AxisIndex> axis_index(std::string_view source, const std::vector<source::Token>& code,
                                    std::size_t s, std::size_t e);

// Whether token i of `code` is one of the thread builtins.
bool is_thread_builtin(std::string_view source, const std::vector<source::Token>& code,
                       std::size_t i);

// The code tokens of `kernel`'s body braces in `code`: {open, close}.
std::pair<std::size_t, std::size_t> body_braces(const std::vector<source::Token>& code,
                                                const source::KernelText& kernel);

}  // namespace optiml::propose
