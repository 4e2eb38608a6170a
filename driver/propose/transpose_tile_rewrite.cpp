// transpose_through_shared: a naive transpose (each thread copies in[y][x] to out[x][y], so a
// warp's stores are a column apart) stages its block's tile in padded shared memory and writes
// the transposed tile from it, so that a warp's stores go to consecutive addresses.
#include <algorithm>
#include <array>
#include <optional>
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

namespace optiml::propose {
namespace {

// Elements of the flat tile: a block's rows padded by one, block_y * (block_x + 1) = threads +
// block_y, at most 1024 + 1024 whatever the block's shape.
constexpr int kTileElements = 2048;

class TransposeReader {
  public:
    TransposeReader(std::string_view source, const source::KernelText& kernel)
        : source_(source), kernel_(kernel), code_(source::code_tokens(source)) {
        std::tie(open_, close_) = body_braces(code_, kernel);
    }

    // The body is the two index declarations and one `if (cond) out[x * R + y] = in[y * C + x];`.
    bool read() {
        std::vector<std::pair<std::size_t, std::size_t>> statements;
        for (std::size_t s = open_ + 1; s < close_;) {
            const std::size_t e = std::max(source::statement_end(code_, source_, s), s + 1);
            statements.emplace_back(s, e);
            s = e;
        }
        if (statements.size() != 3) return false;
        for (int i = 0; i < 2; ++i) {
            const auto index =
                axis_index(source_, code_, statements[i].first, statements[i].second);
            if (!index) return false;
            (index->axis == 'x' ? x_ : y_) = index->name;
            (index->axis == 'x' ? bx_ : by_) = index->extent;
        }
        if (x_.empty() || y_.empty()) return false;
        return read_copy(statements[2].first, statements[2].second);
    }

    std::string edit(const std::string& tile, const std::string& thread) const {
        const std::string in = text(in_), out = text(out_);
        const std::string cond = span(condition_);
        std::vector<TextEdit> edits;
        // The tile's declaration on the line of the body's brace: every line keeps its number.
        edits.push_back({code_[open_].end, 0,
                         " __shared__ " + element_type_ + " " + tile + "[" +
                             std::to_string(kTileElements) + "];"});
        const std::string bx = "(" + bx_ + ")", by = "(" + by_ + ")", row = "(" + bx + " + 1)";
        const std::string write =
            "if (" + cond + ") " + tile + "[threadIdx.y * " + row +
            " + threadIdx.x] = " + span(load_) + "; __syncthreads(); { const unsigned " + thread +
            " = threadIdx.y * " + bx + " + threadIdx.x; const int " + x_ + " = blockIdx.x * " + bx +
            " + " + thread + " / " + by + "; const int " + y_ + " = blockIdx.y * " + by + " + " +
            thread + " % " + by + "; if (" + cond + ") " + span(store_) + " = " + tile + "[" +
            thread + " % " + by + " * " + row + " + " + thread + " / " + by + "]; }";
        // As many line breaks as the copy spanned (a braced one), so later lines keep their
        // numbers.
        const std::size_t begin = code_[copy_begin_].begin, end = code_[copy_end_ - 1].end;
        const auto breaks = std::count(source_.begin() + static_cast<std::ptrdiff_t>(begin),
                                       source_.begin() + static_cast<std::ptrdiff_t>(end), '\n');
        edits.push_back(
            {begin, end - begin, write + std::string(static_cast<std::size_t>(breaks), '\n')});
        return apply_edits(source_, std::move(edits));
    }

  private:
    std::string_view text_view(std::size_t i) const { return token_at(source_, code_, i); }
    std::string text(std::size_t i) const { return std::string(text_view(i)); }
    std::string span(TokenRange r) const { return range_text(source_, code_, r); }
    std::string spelling(std::size_t first, std::size_t end) const {
        return range_spelling(source_, code_, {first, end});
    }

    // `if ( cond ) OUT [ x * R + y ] = IN [ y * C + x ] ;` with OUT and IN pointer parameters.
    bool read_copy(std::size_t s, std::size_t statement_end) {
        if (text_view(s) != "if" || text_view(s + 1) != "(") return false;
        const std::size_t close = source::matching_bracket(code_, source_, s + 1);
        // The copy alone, or in braces: e is one past its ';'.
        std::size_t e = statement_end;
        if (text_view(close + 1) == "{") {
            if (source::matching_bracket(code_, source_, close + 1) != statement_end - 1)
                return false;
            e = statement_end - 1;
        }
        if (close + 1 >= e || text_view(e - 1) != ";") return false;
        condition_ = {s + 2, close};
        for (std::size_t i = condition_.first; i < condition_.end; ++i)
            if (text_view(i) == "[" || text_view(i) == "(") return false;  // bounds only
        const std::size_t out = text_view(close + 1) == "{" ? close + 2 : close + 1;
        if (text_view(out + 1) != "[") return false;
        const std::size_t out_close = source::matching_bracket(code_, source_, out + 1);
        if (text_view(out_close + 1) != "=") return false;
        // The load: `in[...]`, or `__ldg(&in[...])` as load_through_ldg leaves it.
        std::size_t in = out_close + 2, load_end = e - 1;
        if (text_view(in) == "__ldg" && text_view(in + 1) == "(" && text_view(in + 2) == "&" &&
            source::matching_bracket(code_, source_, in + 1) == e - 2) {
            in += 3;
            load_end = e - 2;
        }
        if (text_view(in + 1) != "[" ||
            source::matching_bracket(code_, source_, in + 1) != load_end - 1)
            return false;
        if (!transposed(out + 2, out_close, x_, y_) || !transposed(in + 2, load_end - 1, y_, x_))
            return false;
        for (const source::KernelParameter& p : kernel_.parameters) {
            if (p.name == text(out) && p.is_pointer) out_ = out;
            if (p.name == text(in) && p.is_pointer) {
                in_ = in;
                element_type_ = pointee_type(source_, p);
            }
        }
        if (out_ == 0 || in_ == 0 || element_type_.empty()) return false;
        store_ = {out, out_close + 1};
        load_ = {out_close + 2, e - 1};
        copy_begin_ = s;
        copy_end_ = statement_end;
        return true;
    }

    // The index `major * N + minor` (or `minor + major * N`), N one name other than both.
    bool transposed(std::size_t first, std::size_t end, const std::string& major,
                    const std::string& minor) const {
        if (end != first + 5) return false;
        const std::string spelled = spelling(first, end);
        for (std::size_t i = first; i < end; ++i) {
            const std::string word = text(i);
            if (code_[i].kind == source::TokenKind::Identifier && word != major && word != minor)
                return spelled == major + " * " + word + " + " + minor ||
                       spelled == minor + " + " + major + " * " + word;
        }
        return false;
    }

    std::string_view source_;
    const source::KernelText& kernel_;
    std::vector<source::Token> code_;
    std::size_t open_ = 0, close_ = 0;
    std::string x_, y_, bx_, by_, element_type_;
    TokenRange condition_, store_, load_;
    std::size_t out_ = 0, in_ = 0, copy_begin_ = 0, copy_end_ = 0;
};

}  // namespace

std::optional<std::string> transpose_through_shared(std::string_view source,
                                                    std::string_view kernel) {
    const source::KernelText text = source::find_kernel(source, kernel);
    TransposeReader reader(source, text);
    if (!reader.read()) return std::nullopt;
    std::set<std::string> taken;
    const std::string tile = fresh_name(source, "optiml_tile", taken);
    taken.insert(tile);
    return reader.edit(tile, fresh_name(source, "optiml_t", taken));
}

}  // namespace optiml::propose
