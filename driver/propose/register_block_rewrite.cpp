// register_block: a kernel written one thread per element of a 2-D output computes a block of
// rows x cols elements a thread, a thread block apart along each axis, with the elements'
// statements jammed: every loop whose bounds do not depend on the element runs once for all of
// them, and its body runs for each element in turn. What the elements share (a product's row of
// A for the elements of one row, its column of B for those of one column) is then loaded once
// for all of them, and each element's accumulator stays in a register of its own.
#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <vector>

#include "driver/propose/detail/loop_analysis.h"
#include "driver/propose/detail/product_tiles.h"
#include "driver/propose/detail/rewrites.h"
#include "driver/propose/detail/text_edits.h"
#include "driver/propose/detail/thread_index.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::propose {
namespace {

// Beside the collectives (jammed elements of several threads would meet themselves): an exit
// would end the other elements.
constexpr std::array<std::string_view, 5> kExits = {"asm", "return", "break", "continue", "goto"};

// `T name = init;` or `T name;` at a jammed level of the body.
struct Declaration {
    std::size_t first = 0, name = 0, end = 0;  // code tokens: the type, the name, one past `;`
    std::size_t equals = 0;                    // 0 without an initializer
};

class Jammer {
  public:
    Jammer(std::string_view source, const source::KernelText& kernel, int rows, int cols, int depth)
        : source_(source),
          kernel_(kernel),
          code_(source::code_tokens(source)),
          rows_(rows),
          cols_(cols),
          depth_(depth) {
        std::tie(open_, close_) = body_braces(code_, kernel);
        std::set<std::string> taken;
        q_ = fresh_name(source, "optiml_q", taken);
        taken.insert(q_);
        all_ = fresh_name(source, "optiml_all", taken);
    }

    std::optional<std::string> rewrite() {
        if (close_ <= open_ || !read_shape() || !read_names()) return std::nullopt;
        if (depth_) {
            tiles_ = ProductTiles::find(source_, code_, kernel_, body_, x_, y_, per_element_,
                                        {rows_, cols_, q_}, depth_);
            if (!tiles_) return std::nullopt;
        }
        std::vector<TextEdit> edits;
        for (const auto& [s, e] : {x_statement_, y_statement_})
            edits.push_back({code_[s].begin, code_[e - 1].end - code_[s].begin,
                             std::string(breaks(s, e), '\n')});
        const std::string condition = text(condition_.first, condition_.end);
        // The jammed body where every element is in bounds (staged: every element of the
        // block, which then meets at the tiles' barriers); else each element as written, in a
        // lambda of its own, on the line of the body's closing brace.
        const std::string jammed =
            tiles_ ? tiles_->fits() + " && __syncthreads_and(" + all_ + ")" : all_;
        edits.push_back({code_[if_].begin, code_[condition_.end].end - code_[if_].begin,
                         "bool " + all_ + " = true; " + each_ + all_ + " = " + all_ + " && (" +
                             condition + "); } if (" + jammed + ")"});
        if (tiles_) {
            edits.push_back({code_[body_.first].end, 0, tiles_->declarations()});
            tiles_->loop_edits(edits);
        }
        jam(edits);
        edits.push_back({code_[body_.end - 1].end, 0,
                         " else " + each_ + "[&]() { if (" + condition + ") " +
                             range_spelling(source_, code_, body_) + " }(); }"});
        return apply_edits(source_, std::move(edits));
    }

  private:
    std::string_view word(std::size_t i) const { return token_at(source_, code_, i); }
    std::size_t end_of(std::size_t s) const {
        return std::max(source::statement_end(code_, source_, s), s + 1);
    }
    std::size_t breaks(std::size_t s, std::size_t e) const {
        return static_cast<std::size_t>(
            std::count(source_.begin() + static_cast<std::ptrdiff_t>(code_[s].begin),
                       source_.begin() + static_cast<std::ptrdiff_t>(code_[e - 1].end), '\n'));
    }
    std::string text(std::size_t first, std::size_t end) const {
        return range_text(source_, code_, {first, end});
    }
    // A name as the identifier it is (not a member after `.` or `->`).
    bool names(std::size_t i, const std::set<std::string>& set) const {
        return code_[i].kind == source::TokenKind::Identifier &&
               set.contains(std::string(word(i))) && word(i - 1) != "." && word(i - 1) != "->";
    }
    bool mentions(std::size_t first, std::size_t end, const std::set<std::string>& set) const {
        for (std::size_t i = first; i < end; ++i)
            if (names(i, set)) return true;
        return false;
    }

    // The body: the x and y indices, then `if (cond) { ... }` and nothing else; the thread
    // builtins nowhere but in the indices.
    bool read_shape() {
        std::vector<std::pair<std::size_t, std::size_t>> statements;
        for (std::size_t s = open_ + 1; s < close_; s = end_of(s))
            statements.emplace_back(s, end_of(s));
        if (statements.size() != 3) return false;
        for (int k = 0; k < 2; ++k) {
            const auto [s, e] = statements[static_cast<std::size_t>(k)];
            const auto index = axis_index(source_, code_, s, e);
            if (!index) return false;
            (index->axis == 'x' ? x_ : y_) = *index;
            (index->axis == 'x' ? x_statement_ : y_statement_) = {s, e};
        }
        if (x_.name.empty() || y_.name.empty()) return false;
        if_ = statements[2].first;
        if (word(if_) != "if" || word(if_ + 1) != "(") return false;
        const std::size_t close = source::matching_bracket(code_, source_, if_ + 1);
        if (close >= close_ || word(close + 1) != "{") return false;
        condition_ = {if_ + 2, close};
        body_ = {close + 1, end_of(close + 1)};
        if (body_.end != statements[2].second) return false;  // an else branch
        for (std::size_t i = if_; i < close_; ++i)
            if (is_thread_builtin(source_, code_, i) || is_one_of(word(i), kCollectives) ||
                is_one_of(word(i), kExits))
                return false;
        // A directive would land inside the one line the fallback is written on.
        if (has_directive(source_, code_, open_, close_)) return false;
        item_ = x_.type + x_.name + " = (blockIdx.x * " + std::to_string(cols_) + " + " + q_ +
                " % " + std::to_string(cols_) + ") * " + x_.extent + " + threadIdx.x; " + y_.type +
                y_.name + " = (blockIdx.y * " + std::to_string(rows_) + " + " + q_ + " / " +
                std::to_string(cols_) + ") * " + y_.extent + " + threadIdx.y; (void)" + x_.name +
                "; (void)" + y_.name + "; ";
        each_ = "for (int " + q_ + " = 0; " + q_ + " < " + std::to_string(rows_ * cols_) + "; ++" +
                q_ + ") { " + item_;
        return true;
    }

    // Which names each element has its own copy of: the indices, every local whose initializer
    // reads one, and every other local but those only loops and conditions shared by all
    // elements use (a C89 loop variable). A shared local no element statement may change.
    bool read_names() {
        per_element_ = {x_.name, y_.name};
        for (bool changed = true; changed;) {
            changed = false;
            declarations_.clear();
            uniform_.clear();
            elements_.clear();
            walk(body_.first + 1, body_.end - 1);
            if (!valid_) return false;
            for (const Declaration& d : declarations_) {
                const std::string name(word(d.name));
                if (per_element_.contains(name)) continue;
                const bool reads = d.equals && mentions(d.equals + 1, d.end, per_element_);
                const bool shared =
                    std::any_of(uniform_.begin(), uniform_.end(),
                                [&](TokenRange r) { return mentions(r.first, r.end, {name}); });
                if (reads || !shared) changed = per_element_.insert(name).second || changed;
            }
        }
        locals_ = per_element_;
        locals_.erase(x_.name);
        locals_.erase(y_.name);
        std::set<std::string> shared;
        for (const Declaration& d : declarations_)
            if (!per_element_.contains(std::string(word(d.name))))
                shared.insert(std::string(word(d.name)));
        for (const TokenRange r : elements_)
            for (std::size_t i = r.first; i < r.end; ++i)
                if (names(i, shared) &&
                    (is_one_of(word(i + 1), kAssignmentOperators) || word(i + 1) == "++" ||
                     word(i + 1) == "--" || word(i - 1) == "++" || word(i - 1) == "--"))
                    return false;
        return true;
    }

    // The statements in [first, end) at a jammed level: loops and conditions that read no
    // element's name are shared (their bodies jammed in turn); declarations are read; anything
    // else runs for each element.
    void walk(std::size_t first, std::size_t end) {
        for (std::size_t s = first; s < end && valid_;) {
            const std::size_t e = end_of(s);
            if (e > end) {
                valid_ = false;
                return;
            }
            const std::string_view w = word(s);
            if (w == "{") {
                walk(s + 1, e - 1);
            } else if ((w == "for" || w == "if") && word(s + 1) == "(") {
                const std::size_t close = source::matching_bracket(code_, source_, s + 1);
                if (mentions(s + 2, close, per_element_)) {
                    elements_.push_back({s, e});
                } else {
                    uniform_.push_back({s + 2, close});
                    const std::size_t then_end = end_of(close + 1);
                    walk(close + 1, std::min(then_end, e));
                    if (w == "if" && then_end < e && word(then_end) == "else")
                        walk(then_end + 1, e);
                }
            } else if (is_one_of(w, kLocalTypeWords) || declares_named_type(s)) {
                std::size_t name = s;
                while (name < e && is_one_of(word(name), kLocalTypeWords)) ++name;
                if (declares_named_type(name)) ++name;  // past uint32_t, PolyBench's DATA_TYPE
                const std::string_view next = word(name + 1);
                if (code_[name].kind != source::TokenKind::Identifier ||
                    (next != "=" && next != ";")) {
                    valid_ = false;  // several declarators, an array, a reference
                    return;
                }
                declarations_.push_back({s, name, e, next == "=" ? name + 1 : 0});
            } else if (code_[s].kind == source::TokenKind::Identifier &&
                       code_[s + 1].kind == source::TokenKind::Identifier) {
                valid_ = false;  // a declaration the rewrite does not read (uint32_t x[4];)
                return;
            } else {
                elements_.push_back({s, e});
            }
            s = e;
        }
    }

    // `T name =` or `T name;` with T one name (a typedef, a macro): two names in a row only
    // ever declare.
    bool declares_named_type(std::size_t i) const {
        return code_[i].kind == source::TokenKind::Identifier &&
               code_[i + 1].kind == source::TokenKind::Identifier &&
               !is_one_of(word(i + 1), kLocalTypeWords) &&
               (word(i + 2) == "=" || word(i + 2) == ";") && !is_one_of(word(i), kNotTypes);
    }

    // The text of [first, end) with each element's own locals read from their arrays (and,
    // staged, its operands from their tiles).
    std::string element_text(std::size_t first, std::size_t end) const {
        std::vector<TextEdit> edits;
        for (std::size_t i = first; i < end; ++i) {
            const auto tile = tiles_ ? tiles_->read_at(i) : std::nullopt;
            if (tile) {
                edits.push_back({code_[i].begin - code_[first].begin,
                                 code_[tile->first - 1].end - code_[i].begin, tile->second});
                i = tile->first - 1;
            } else if (names(i, locals_)) {
                edits.push_back({code_[i].end - code_[first].begin, 0, "[" + q_ + "]"});
            }
        }
        return apply_edits(text(first, end), std::move(edits));
    }

    // The edits of the jammed body, from the last walk's reading (it saw the final names): each
    // element statement runs for every element in turn; each element's own local becomes an
    // array of one a element, assigned (so never const) where it was declared. Shared loops,
    // conditions and locals stay as written.
    void jam(std::vector<TextEdit>& edits) const {
        const auto replace = [&](std::size_t s, std::size_t e, const std::string& with) {
            edits.push_back({code_[s].begin, code_[e - 1].end - code_[s].begin, with});
        };
        for (const TokenRange r : elements_)
            replace(r.first, r.end, each_ + element_text(r.first, r.end) + " }");
        for (const Declaration& d : declarations_) {
            const std::string name(word(d.name));
            if (!locals_.contains(name)) continue;
            std::string type;
            for (std::size_t t = d.first; t < d.name; ++t)
                if (word(t) != "const") type += std::string(word(t)) + " ";
            std::string with = type + name + "[" + std::to_string(rows_ * cols_) + "];";
            if (d.equals)
                with += " " + each_ + name + "[" + q_ +
                        "] = " + element_text(d.equals + 1, d.end - 1) + "; }";
            replace(d.first, d.end, with + std::string(breaks(d.first, d.end), '\n'));
        }
    }

    std::string_view source_;
    const source::KernelText& kernel_;
    std::vector<source::Token> code_;
    int rows_, cols_, depth_;
    std::optional<ProductTiles> tiles_;
    std::size_t open_ = 0, close_ = 0, if_ = 0;
    std::string q_, all_, item_, each_;  // each_: the loop over a thread's elements, opened
    AxisIndex x_, y_;
    std::pair<std::size_t, std::size_t> x_statement_, y_statement_;
    TokenRange condition_, body_;
    bool valid_ = true;
    std::set<std::string> per_element_, locals_;
    std::vector<Declaration> declarations_;
    std::vector<TokenRange> uniform_, elements_;
};

}  // namespace

std::optional<std::string> register_block(std::string_view source, std::string_view kernel,
                                          int rows, int cols, int depth) {
    if (rows < 1 || cols < 1 || rows * cols < (depth ? 1 : 2) || rows * cols > 64)
        throw source::RewriteError("register_block: " + std::to_string(rows) + " x " +
                                   std::to_string(cols) + " elements a thread is not " +
                                   (depth ? "1" : "2") + " to 64");
    if (depth != 0 && (depth < 2 || depth > 64))
        throw source::RewriteError("register_block: tiles " + std::to_string(depth) +
                                   " steps deep are not 2 to 64");
    const source::KernelText text = source::find_kernel(source, kernel);
    return Jammer(source, text, rows, cols, depth).rewrite();
}

}  // namespace optiml::propose
