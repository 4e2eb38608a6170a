// Shared-memory tiles of a product loop, for a kernel written one thread per element of a 2-D
// output (register_block's shape): in the loop `for (k = S; k < E; ++k)` of the element's body,
// an operand read `p[index]` whose index names k and one of the two element indices (A's row
// `a[i * nk + k]`, B's column `b[k * nj + j]`) is read by every thread of the block's row or
// column alike. The block loads the operand's slab of `depth` steps of k once into shared memory
// (all its threads, coalesced along whichever of the two axes the index runs through unit steps),
// waits at a barrier, and each element reads its value from the tile. register_block writes the
// kernel; this reads where the tiles go and spells their code.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "driver/propose/detail/loop_analysis.h"
#include "driver/propose/detail/text_edits.h"
#include "driver/propose/detail/thread_index.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"

namespace optiml::propose {

// How a thread's elements sit in the block's tile (register_block's mapping): element q of a
// thread is row q / cols and column q % cols of a rows x cols block of elements, each a thread
// block apart.
struct ElementGrid {
    int rows = 1, cols = 1;
    std::string q;  // the element's number in the generated code
};

class ProductTiles {
  public:
    // The first counted loop among the statements of the element's body (the braces `body` of
    // its `if`), or of blocks and conditions in it that are the same for the whole block, whose
    // operands tile; nullopt where none does. `per_element`: the names
    // each element has its own copy of (the indices among them).
    static std::optional<ProductTiles> find(std::string_view source,
                                            const std::vector<source::Token>& code,
                                            const source::KernelText& kernel, TokenRange body,
                                            const AxisIndex& x, const AxisIndex& y,
                                            const std::set<std::string>& per_element,
                                            ElementGrid grid, int depth);

    // The shared arrays, to open the body where every element runs staged.
    std::string declarations() const;
    // Whether the block's shape lets the tiles hold it (uniform across the block).
    std::string fits() const;
    // The loop's edits: the slab loop around it that loads the tiles between two barriers, and
    // the loop itself over one slab.
    void loop_edits(std::vector<TextEdit>& edits) const;
    // The tile read standing for the operand read at code token `first` in place of the tokens
    // [first, end) as written; nullopt where no operand read starts there.
    std::optional<std::pair<std::size_t, std::string>> read_at(std::size_t first) const;

  private:
    struct Tile {
        std::string name, type, load;  // load: the operand read as written
        char axis = 0;                 // 'y': a row of the block (A); 'x': a column (B)
        bool unit_k = false;           // consecutive k at consecutive addresses
    };
    ProductTiles(std::string_view source, const std::vector<source::Token>& code)
        : source_(source), code_(&code) {}

    std::string_view word(std::size_t i) const { return token_at(source_, *code_, i); }
    bool find_loop(const source::KernelText& kernel, TokenRange block);
    bool read_loop(const source::KernelText& kernel, std::size_t keyword);
    std::optional<char> operand_axis(TokenRange index) const;
    std::string tile_loads(const Tile& tile) const;
    std::string extent(char axis) const;  // the tile's rows (y) or columns (x), as code
    std::string pitch(const Tile& tile) const;

    std::string_view source_;
    const std::vector<source::Token>* code_;
    AxisIndex x_, y_;
    std::set<std::string> per_element_, declared_;
    ElementGrid grid_;
    int depth_ = 16;
    std::string slab_;  // the slab's first k
    LoopShape loop_;
    std::vector<Tile> tiles_;
    std::map<std::size_t, std::pair<std::size_t, std::size_t>> reads_;  // first -> {end, tile}
};

}  // namespace optiml::propose
