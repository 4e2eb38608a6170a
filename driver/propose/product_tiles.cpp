#include "driver/propose/detail/product_tiles.h"

#include <algorithm>
#include <array>

namespace optiml::propose {
namespace {

// A tile holds at most this many of the block's rows (A) or columns (B) of elements: 64 x 17 and
// 16 x 129 floats at depth 16, 13 KB of shared memory, whatever the block.
constexpr int kTileRows = 64;
constexpr int kTileColumns = 128;

}  // namespace

std::optional<ProductTiles> ProductTiles::find(std::string_view source,
                                               const std::vector<source::Token>& code,
                                               const source::KernelText& kernel, TokenRange body,
                                               const AxisIndex& x, const AxisIndex& y,
                                               const std::set<std::string>& per_element,
                                               ElementGrid grid, int depth) {
    ProductTiles tiles(source, code);
    tiles.x_ = x;
    tiles.y_ = y;
    tiles.per_element_ = per_element;
    tiles.grid_ = std::move(grid);
    tiles.depth_ = depth;
    // An operand's index may name none of the body's names but the loop's variable and the
    // element's index.
    tiles.declared_ = declared_names(source, code, body);
    std::set<std::string> taken;
    tiles.slab_ = fresh_name(source, "optiml_slab", taken);
    return tiles.find_loop(kernel, body) ? std::optional<ProductTiles>(std::move(tiles))
                                         : std::nullopt;
}

// Among the statements of the braces `block`, or of a block or the branch of a condition the
// same for every element of the block (accumulate_in_register's `if (S < E) { ... }`): every
// thread reaches the loop, so its barriers.
bool ProductTiles::find_loop(const source::KernelText& kernel, TokenRange block) {
    const std::vector<source::Token>& code = *code_;
    for (std::size_t s = block.first + 1; s + 1 < block.end;) {
        const std::size_t e = std::max(source::statement_end(code, source_, s), s + 1);
        if (word(s) == "for" && read_loop(kernel, s)) return true;
        if (word(s) == "{" && find_loop(kernel, {s, e})) return true;
        if (word(s) == "if" && word(s + 1) == "(") {
            const std::size_t close = source::matching_bracket(code, source_, s + 1);
            bool uniform = close < e;
            for (std::size_t i = s + 2; i < close && uniform; ++i)
                uniform = !per_element_.contains(std::string(word(i)));
            const std::size_t then_end =
                std::max(source::statement_end(code, source_, close + 1), close + 2);
            if (uniform && word(close + 1) == "{" && find_loop(kernel, {close + 1, then_end}))
                return true;
        }
        s = e;
    }
    return false;
}

// A counted loop `for (k = S; k < E; ++k)` that leaves only at its end, its bounds the same for
// every element (so for the whole block), with at least one operand read that tiles.
bool ProductTiles::read_loop(const source::KernelText& kernel, std::size_t keyword) {
    const LoopAnalysis loop(source_, kernel, (*code_)[keyword].begin);
    const LoopShape& shape = loop.shape();
    const std::string increment = loop.spelling(shape.increment);
    const std::string& k = shape.variable;
    if (!shape.counted || shape.comparison != "<" || loop.jumps() ||
        (increment != k + " ++" && increment != "++ " + k && increment != k + " += 1"))
        return false;
    for (const TokenRange range : {shape.start, shape.bound})
        for (std::size_t i = range.first; i < range.end; ++i)
            if (per_element_.contains(std::string(word(i)))) return false;
    loop_ = shape;
    tiles_.clear();
    reads_.clear();
    std::set<std::string> taken;
    for (const Subscript& read : loop.subscripts()) {
        if (read.whole.first < shape.body.first || kernel.written_parameters.contains(read.pointer))
            continue;
        const std::optional<char> axis = operand_axis(read.index);
        if (!axis) continue;
        const std::string load = loop.text(read.whole);
        auto tile = std::find_if(tiles_.begin(), tiles_.end(),
                                 [&](const Tile& t) { return t.load == load && t.axis == *axis; });
        if (tile == tiles_.end()) {
            const auto parameter = std::find_if(
                kernel.parameters.begin(), kernel.parameters.end(),
                [&](const source::KernelParameter& p) { return p.name == read.pointer; });
            Tile t;
            t.name = fresh_name(source_, "optiml_tile", taken);
            taken.insert(t.name);
            t.type = pointee_type(source_, *parameter);
            t.load = load;
            t.axis = *axis;
            // k a term of its own in the index's outermost sum: a step of k is a step of one.
            int depth = 0;
            for (std::size_t i = read.index.first; i < read.index.end; ++i) {
                depth += word(i) == "(" ? 1 : word(i) == ")" ? -1 : 0;
                if (depth == 0 && word(i) == k && (i == read.index.first || word(i - 1) == "+") &&
                    (i + 1 == read.index.end || word(i + 1) == "+" || word(i + 1) == "-"))
                    t.unit_k = true;
            }
            tiles_.push_back(t);
            tile = tiles_.end() - 1;
        }
        reads_[read.whole.first] = {read.whole.end,
                                    static_cast<std::size_t>(tile - tiles_.begin())};
    }
    return !tiles_.empty();
}

// 'y' where the index names k and the row index, 'x' for k and the column index, each with only
// names the block shares beside them (parameters, macros) and arithmetic; nullopt otherwise.
std::optional<char> ProductTiles::operand_axis(TokenRange index) const {
    static constexpr std::array<std::string_view, 9> kArithmetic = {"+", "-", "*",  "/", "%",
                                                                    "(", ")", "<<", ">>"};
    bool k = false, x = false, y = false;
    for (std::size_t i = index.first; i < index.end; ++i) {
        const std::string name(word(i));
        if ((*code_)[i].kind == source::TokenKind::Identifier) {
            if (word(i + 1) == "(" || word(i + 1) == "[") return std::nullopt;  // a call, a load
            if (name == loop_.variable) {
                k = true;
            } else if (name == x_.name) {
                x = true;
            } else if (name == y_.name) {
                y = true;
            } else if (per_element_.contains(name) || declared_.contains(name)) {
                return std::nullopt;
            }
        } else if ((*code_)[i].kind != source::TokenKind::Number &&
                   !is_one_of(word(i), kArithmetic)) {
            return std::nullopt;
        }
    }
    if (!k || x == y) return std::nullopt;
    return x ? 'x' : 'y';
}

std::string ProductTiles::extent(char axis) const {
    const int elements = axis == 'y' ? grid_.rows : grid_.cols;
    const std::string threads = axis == 'y' ? "blockDim.y" : "blockDim.x";
    return elements == 1 ? threads : std::to_string(elements) + " * " + threads;
}

std::string ProductTiles::pitch(const Tile& tile) const {
    return tile.axis == 'y' ? std::to_string(depth_ + 1) : "(" + extent('x') + " + 1)";
}

std::string ProductTiles::declarations() const {
    std::string out;
    for (const Tile& t : tiles_) {
        const int size = t.axis == 'y' ? kTileRows * (depth_ + 1) : depth_ * (kTileColumns + 1);
        out += " __shared__ " + t.type + " " + t.name + "[" + std::to_string(size) + "];";
    }
    return out;
}

std::string ProductTiles::fits() const {
    std::string out =
        "blockDim.z == 1 && (" + x_.extent + ") == blockDim.x && (" + y_.extent + ") == blockDim.y";
    const auto has = [&](char axis) {
        return std::any_of(tiles_.begin(), tiles_.end(),
                           [&](const Tile& t) { return t.axis == axis; });
    };
    if (has('y')) out += " && " + extent('y') + " <= " + std::to_string(kTileRows);
    if (has('x')) out += " && " + extent('x') + " <= " + std::to_string(kTileColumns);
    return out;
}

// The block's threads, one element of the tile after another: along the axis where the operand's
// addresses are consecutive (k for A read a row at a time, the column for B), so a warp's loads
// coalesce. Steps of k past the loop's bound are not loaded (nor read).
std::string ProductTiles::tile_loads(const Tile& t) const {
    const std::string e = slab_ + "_e", at = slab_ + "_at", d = std::to_string(depth_);
    const std::string across = "(" + extent(t.axis) + ")";
    const std::string k_type = without_const(loop_.type);
    const AxisIndex& index = t.axis == 'y' ? y_ : x_;
    const std::string index_type = without_const(index.type);
    std::string out = "for (unsigned " + e + " = threadIdx.y * blockDim.x + threadIdx.x; " + e +
                      " < " + across + " * " + d + "; " + e + " += blockDim.x * blockDim.y) { ";
    out += t.unit_k ? "const unsigned " + at + " = " + e + " / " + d + "; const " + k_type + " " +
                          loop_.variable + " = " + slab_ + " + static_cast<" + k_type + ">(" + e +
                          " % " + d + "); "
                    : "const unsigned " + at + " = " + e + " % " + across + "; const " + k_type +
                          " " + loop_.variable + " = " + slab_ + " + static_cast<" + k_type + ">(" +
                          e + " / " + across + "); ";
    out += "if (" + loop_.variable + " < (" + range_text(source_, *code_, loop_.bound) + ")) { ";
    out += "const " + index_type + " " + index.name + " = static_cast<" + index_type +
           ">(blockIdx." + t.axis + " * " + across + " + " + at + "); ";
    const std::string kk = "(" + loop_.variable + " - " + slab_ + ")";
    out +=
        t.name + "[" +
        (t.axis == 'y' ? at + " * " + pitch(t) + " + " + kk : kk + " * " + pitch(t) + " + " + at) +
        "] = " + t.load + "; } } ";
    return out;
}

void ProductTiles::loop_edits(std::vector<TextEdit>& edits) const {
    const std::vector<source::Token>& code = *code_;
    const std::string d = std::to_string(depth_);
    std::string slab = "for (" + without_const(loop_.type) + " " + slab_ + " = " +
                       range_text(source_, code, loop_.start) + "; " + slab_ + " < (" +
                       range_text(source_, code, loop_.bound) + "); " + slab_ + " += " + d +
                       ") { __syncthreads(); ";
    for (const Tile& t : tiles_) slab += tile_loads(t);
    slab += "__syncthreads(); ";
    edits.push_back({code[loop_.keyword].begin, 0, slab});
    const auto replace = [&](TokenRange r, std::string with) {
        edits.push_back(
            {code[r.first].begin, code[r.end - 1].end - code[r.first].begin, std::move(with)});
    };
    replace(loop_.start, slab_);
    replace(loop_.bound, "(" + range_text(source_, code, loop_.bound) + ") && " + loop_.variable +
                             " < " + slab_ + " + " + d);
    edits.push_back({code[loop_.body.end - 1].end, 0, " }"});
}

std::optional<std::pair<std::size_t, std::string>> ProductTiles::read_at(std::size_t first) const {
    const auto read = reads_.find(first);
    if (read == reads_.end()) return std::nullopt;
    const Tile& t = tiles_[read->second.second];
    const std::string kk = "(" + loop_.variable + " - " + slab_ + ")";
    const std::string cols = std::to_string(grid_.cols);
    std::string at;
    if (t.axis == 'y')
        at = grid_.rows == 1 ? "threadIdx.y"
                             : "(" + grid_.q + " / " + cols + " * blockDim.y + threadIdx.y)";
    else
        at = grid_.cols == 1 ? "threadIdx.x"
                             : "(" + grid_.q + " % " + cols + " * blockDim.x + threadIdx.x)";
    const std::string index =
        t.axis == 'y' ? at + " * " + pitch(t) + " + " + kk : kk + " * " + pitch(t) + " + " + at;
    return std::make_pair(read->second.first, t.name + "[" + index + "]");
}

}  // namespace optiml::propose
