// Source rewrites of one named kernel, each a pure function of the whole source text. Each edits
// only inside that kernel's declaration and body, keeps its name and signature (parameters may
// gain qualifiers), and returns the new whole source, or std::nullopt when its precondition does
// not hold (already applied, nothing to change, no such loop), so that a proposer can offer
// exactly the moves that change something. They compose: each re-reads the text it is given.
// Throws RewriteError when the kernel cannot be located or an argument is out of range.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace optiml::propose {

// `__launch_bounds__(max_threads)` or `__launch_bounds__(max_threads, min_blocks)` before the
// kernel's name; nullopt when it already has launch bounds.
std::optional<std::string> add_launch_bounds(std::string_view source, std::string_view kernel,
                                             int max_threads, int min_blocks = 0);

// `#pragma unroll` (factor 0) or `#pragma unroll factor` on its own line before the `for` at
// loop_line, indented like it; an existing unroll pragma there gets the new factor. nullopt when
// the kernel has no `for` on that line or the pragma already says the same.
std::optional<std::string> unroll_loop(std::string_view source, std::string_view kernel,
                                       int loop_line, int factor);

// `__restrict__` on every pointer parameter lacking it, and `const` on the pointee of each one
// named in read_only that the body does not write; nullopt when nothing changes.
std::optional<std::string> restrict_pointers(std::string_view source, std::string_view kernel,
                                             const std::set<std::string>& read_only);

// Reads `p[expr]` of each parameter p named in read_only, not written by the body and pointing
// to a type __ldg loads (float, int, float4, ...), become `__ldg(&p[expr])`; nullopt when none.
std::optional<std::string> load_through_ldg(std::string_view source, std::string_view kernel,
                                            const std::set<std::string>& read_only);

// The loop rewrites below take the loop by the line of its `for` (the first there) and need a
// counted loop `for (T k = S; k OP E; ...)` whose S and E the loop does not change; none applies
// to a loop that leaves early (break, continue, return, goto) or calls anything but pure math
// functions (so no barrier, atomic or shuffle: threads may take different paths through them).
// Like restrict_pointers they take the pointer arguments not to overlap (the spec passes each its
// own allocation), and a pointer the kernel copies or passes on is treated as written.

// The loads `p[base + k]` (or `p[k + base]`, `p[k]`, `__ldg(&p[...])`) of float pointers the
// kernel never writes, with base invariant, in a loop `for (int k = S; k < E; ++k)` that stores
// to no memory: the loop becomes a block that runs `width` (2 or 4) iterations at a time on one
// float2/float4 load a stream, each iteration's body kept whole and in order (bit-identical
// arithmetic), when every stream's address is aligned at run time, then the original loop for
// the remaining iterations (all of them when misaligned). nullopt where the loop does not
// qualify or has no such load.
std::optional<std::string> vectorize_loads(std::string_view source, std::string_view kernel,
                                           int loop_line, int width);

// Loads `p[index]` with index invariant in a loop that also stores to memory (where, without
// __restrict__, the compiler must reload them after each store), from pointers the kernel never
// writes, or writes only through subscripts and not in this loop, at least one of them on the
// body's unconditional path: read once into a const local
// before the loop, inside `if (S OP E)` so that a loop that runs no iteration loads nothing.
std::optional<std::string> hoist_invariant_loads(std::string_view source, std::string_view kernel,
                                                 int loop_line);

// An element `p[index]` a loop reads and writes (`p[i] += ...`) at an invariant index, where the
// loop touches p nowhere else and the kernel only ever subscripts p (never copies it, takes an
// element's address or loads it through __ldg), at least once on the body's unconditional path:
// a local accumulator loaded before the loop, used inside it, and stored once after it, inside
// `if (S OP E)`. The same operations in the same order: bit-identical.
std::optional<std::string> accumulate_in_register(std::string_view source, std::string_view kernel,
                                                  int loop_line);

// Global atomics of a histogram: where the body uses a pointer parameter p only as
// `atomicAdd(&p[index], value);` statements (the old value unused) and `counts` gives p's element
// count (at most 32 KiB of int, unsigned, unsigned long long, float or double over all such
// parameters), each block adds into a copy of p in shared memory, zeroed first, and merges its
// nonzero elements into p once, after a barrier; an index beyond the count goes to p as before.
// A body that returns early runs in a lambda so that every thread reaches the barriers. The
// prologue and epilogue sit on the lines of the body's braces: every line keeps its number.
std::optional<std::string> privatize_atomics(std::string_view source, std::string_view kernel,
                                             const std::map<std::string, long>& counts);

// A kernel written one thread per row (`int row = blockIdx.x * blockDim.x + threadIdx.x;`, the
// body's only use of the thread builtins) becomes one warp per row: the row is the global thread
// index divided by 32, each outermost loop `for (int k = S; k < E; ++k)` after it starts at
// S + lane and steps by 32 (its bound must name something known at run time, a row's length,
// not a few constant steps), and a scalar a loop accumulates (`acc += e`, `acc -= e`,
// `acc = fmaxf(acc, e)` and fminf, fmax, fmin, max, min, `if (e > acc) acc = e;` and its
// mirror images) is combined across the warp by
// shuffles right after it, so every lane holds the row's value. The launch needs the grid's x
// times 32 and blocks of a multiple of 32 threads (the caller's to arrange). Preconditions, on the
// tokens: each such loop stores only to elements indexed by a sum of invariant terms and its
// variable (each iteration its own element), calls only pure functions and does not leave early;
// outside those loops nothing loops, waits at a barrier, uses shared memory, calls a function
// with effects, changes the row, or stores to memory but by a plain `=` (every lane writes the
// same value). Sums change their order of additions. nullopt where it does not apply.
std::optional<std::string> cooperate_rows(std::string_view source, std::string_view kernel);

// A naive transpose: a body of exactly `int x = blockIdx.x * blockDim.x + threadIdx.x;` (the
// extent also a name or number: Kernel Tuner's block_size_x, a TILE_DIM), the same for y, and
// `if (cond) out[x * R + y] = in[y * C + x];` (any order of the products' terms; the load also
// `__ldg(&in[...])`). Each block stages its tile in a flat `__shared__ T tile[2048]`, rows
// padded by one (a column's reads fall in distinct banks; 2048 holds the tile of any block of at
// most 1024 threads), waits at a barrier, and each thread writes the transposed element of the
// tile at consecutive positions of a row of out, under the same condition. The launch is
// unchanged. nullopt for any other body.
std::optional<std::string> transpose_through_shared(std::string_view source,
                                                    std::string_view kernel);

// Thread coarsening of a kernel written one thread per item (the same index declaration as
// cooperate_rows, followed at once by an `if` that bounds it): each thread runs `factor` items,
// block-strided (item k of block b is (b * factor + k) * blockDim.x + threadIdx.x, so a warp's
// accesses stay coalesced), each in an immediately called lambda so that `return` ends one item.
// The launch needs the grid's x divided by `factor`, rounded up (the caller's to arrange).
// Declines where a thread's items would share state: a parameter or a name declared before the
// index changed after it, the index changed, or a barrier, shared memory, a shuffle or a vote.
// Throws RewriteError for a factor below 2.
std::optional<std::string> coarsen_items(std::string_view source, std::string_view kernel,
                                         int factor);

// Vector loads of narrow elements, for a kernel written one thread per item (the index and
// bounding `if` of coarsen_items, the bound `i < E` or `i >= E` with `return;`) whose body reads
// a pointer parameter of 1-byte (char, int8_t, ...) or 2-byte integers (short, uint16_t, ...)
// only as `p[i]`, every such read before the body first branches after the bound (a read in the
// condition of an if, while or switch counts as before; so the original read every element
// below it): each thread runs the 4 adjacent items 4t .. 4t + 3, one after another, each in an
// immediately called lambda as in coarsen_items, and where all four lie below the bound and
// every such pointer is aligned, their elements come from one uchar4 (ushort4) load a pointer
// and the body runs as written with its bound's test settled; otherwise each item runs the
// original body (written on the closing brace's line, so no directive may sit in the body). The
// launch needs the grid's x divided by 4, rounded up (the caller's to arrange). The result is again
// one thread per item (of four), so coarsen_items and privatize_atomics still apply. nullopt where
// it does not apply.
std::optional<std::string> vectorize_narrow_loads(std::string_view source, std::string_view kernel);

// Register blocking of a kernel written one thread per element of a 2-D output: a body of
// exactly the x and y indices (as transpose_through_shared reads them) and one
// `if (cond) { ... }`, the thread builtins nowhere else, no barrier, shared memory, shuffle,
// vote, asm, early exit (return, break, continue, goto) or directive. Each thread computes
// rows x cols elements, a thread block apart along each axis (element (r, c) of block (bx, by) at
// x = (bx * cols + c) * Ex + threadIdx.x, y = (by * rows + r) * Ey + threadIdx.y, so warps stay
// coalesced). Where every element is in bounds the body runs jammed: a loop or condition that
// reads no element's name (its indices, or a local whose initializer reads one) runs once for
// all of them, and each other statement runs for each element in turn, each element's locals in
// an array of its own (registers once the constant loops unroll); a local only shared loops and
// conditions use (a C89 loop variable) stays one, and no element statement may change it.
// Elsewhere (the grid's edges) each element runs the original body in a lambda. Each element
// runs its own statements in its own order, so results are the original's bit for bit. The
// launch needs the grid's x divided by cols and its y by rows, rounded up (the caller's to
// arrange).
// With `depth` (2 to 64), the first counted loop `for (k = S; k < E; ++k)` among the body's
// statements (S and E the same for every element) is staged through shared memory: an operand
// read there whose index names k, one of the two indices and nothing else a thread has of its own
// (A's `a[i * nk + k]`, B's `b[k * nj + j]`, of a parameter the kernel never writes) is loaded
// by the whole block, `depth` steps of k at a time, into a padded tile (one per operand, at most
// 64 rows or 128 columns of elements), between two barriers, and each element reads it from
// there. Blocks whose elements are all in bounds (`__syncthreads_and`) and whose shape the
// tiles hold run staged; the others run each element as written. rows = cols = 1 stages alone.
// nullopt where no loop has an operand to stage. Bit for bit again: the same operations in the
// same order.
// Throws RewriteError unless rows * cols is 2 (1 staged) to 64 and depth 0 or 2 to 64; nullopt
// where it does not apply.
std::optional<std::string> register_block(std::string_view source, std::string_view kernel,
                                          int rows, int cols, int depth = 0);

// A 2-D stencil written one thread per point: the x and y indices (as register_block reads them)
// first, then `if (bound) { ... }` or `if (cond) return;` and the rest of the body, no barrier,
// shared memory or shuffle, and reads of a pointer the kernel never writes whose indices (their
// locals spelled out; integer sums and products) are the first read's at the point shifted by up
// to 4 along x and y. Each block loads its tile of that input with the halo the shifts reach into
// a `__shared__ T tile[3200]` (per input, at most two), before one barrier every thread reaches,
// and each such read takes its slot from there. A slot is loaded only where some thread of the
// block would read it as written: the thread it shifts from is in the block and the conditions
// around its read (the bound, the branches, pure comparisons of locals computed from the
// indices) hold there. Reads in loops or behind ?:, && or || stay as written, and so does every
// read where the block's shape does not fit the tile. nullopt where no input has two points.
std::optional<std::string> stage_halo(std::string_view source, std::string_view kernel);

}  // namespace optiml::propose
