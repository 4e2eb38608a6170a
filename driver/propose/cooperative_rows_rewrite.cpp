// cooperate_rows: a kernel written one thread per row becomes one warp per row. The lanes of a
// warp stride over each of the row's loops, and what a loop accumulates is combined across the
// warp by shuffles after it, so every lane holds the row's total and the code after the loop runs
// as before. Reads of a row become coalesced, and 32 times as many threads hide the latency.
#include <algorithm>
#include <array>
#include <map>
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

constexpr std::array<std::string_view, 6> kCombiners = {"fmaxf", "fminf", "fmax",
                                                        "fmin",  "max",   "min"};
constexpr std::array<std::string_view, 7> kNotCalls = {
    "if", "for", "while", "switch", "return", "sizeof", "__builtin_expect"};

// What a loop folds into a scalar declared before it: `acc += e;` / `acc -= e;` (combined by
// addition) or `acc = fmaxf(acc, e);` and the like (combined by that function).
struct Accumulator {
    std::string name;
    std::string combine;  // "+" or the function's name
};

// One outermost loop the lanes share, and what its edit needs.
struct SharedLoop {
    const source::KernelLoop* loop = nullptr;
    TokenRange start, increment;
    std::string variable;
    std::vector<Accumulator> accumulators;
};

class RowKernelReader {
  public:
    RowKernelReader(std::string_view source, const source::KernelText& kernel)
        : source_(source), kernel_(kernel), code_(source::code_tokens(source)) {
        std::tie(open_, close_) = body_braces(code_, kernel);
    }

    // The row: the body's one thread index (thread_index.h).
    bool read_row_index() {
        if (close_ <= open_) return false;
        auto index = find_thread_index(source_, code_, open_, close_);
        if (!index) return false;
        row_name_ = index->name;
        row_index_ = index->index;
        row_semicolon_ = index->semicolon;
        return true;
    }

    // Every outermost loop, checked and read; false when any cannot be shared by a warp.
    bool read_loops() {
        for (const source::KernelLoop& loop : kernel_.loops) {
            if (loop.depth != 0) continue;
            const LoopAnalysis analysis(source_, kernel_, loop.keyword);
            if (analysis.shape().keyword < row_semicolon_) return false;  // before the lane is
            auto shared = read_loop(loop, analysis);
            if (!shared) return false;
            spans_.push_back({analysis.shape().keyword, analysis.shape().body.end});
            loops_.push_back(std::move(*shared));
        }
        return !loops_.empty();
    }

    // Outside the shared loops every lane runs the same code on the same values (the row, and
    // totals every lane holds after the shuffles): it must not call anything with effects, wait
    // at a barrier, use shared memory, loop otherwise, change the row, or store to memory other
    // than by a plain `=` (32 lanes writing one value is one write; `+=` would be 32).
    bool outside_loops_is_uniform() const {
        for (std::size_t i = open_ + 1; i < close_; ++i) {
            if (in_shared_loop(i)) continue;
            const std::string_view t = text(i);
            if (t == "while" || t == "do" || t == "goto" || t == "asm" || t == "__shared__" ||
                t == "volatile")
                return false;
            if (t == "(" && !pure_call_before(i)) return false;
            const bool assignment = is_one_of(t, kAssignmentOperators);
            const bool increment = t == "++" || t == "--";
            if (!assignment && !increment) continue;
            const bool declaration = i > 1 && is_one_of(text(i - 2), kLocalTypeWords);
            if (!declaration && (text(i - 1) == row_name_ || text(i + 1) == row_name_))
                return false;
            const bool memory = text(i - 1) == "]" || text(i - 1) == ")" ||
                                (increment && text(i + 2) == "[") || statement_starts_with_star(i);
            if (memory && t != "=") return false;
        }
        return true;
    }

    std::string edit(const std::string& lane) const {
        std::vector<TextEdit> edits;
        const std::string index = span(row_index_);
        edits.push_back({code_[row_index_.first].begin, index.size(), "(" + index + ") / 32"});
        edits.push_back({code_[row_semicolon_].end, 0,
                         " const int " + lane + " = static_cast<int>(threadIdx.x % 32u);"});
        std::set<std::string> taken = {lane};
        const std::string offset = fresh_name(source_, "optiml_offset", taken);
        for (const SharedLoop& s : loops_) {
            const std::string start = span(s.start);
            const bool single = s.start.end == s.start.first + 1;
            edits.push_back({code_[s.start.first].begin, start.size(),
                             (single ? start : "(" + start + ")") + " + " + lane});
            edits.push_back(
                {code_[s.increment.first].begin, span(s.increment).size(), s.variable + " += 32"});
            std::string before, after;
            for (const Accumulator& a : s.accumulators) {
                const std::string lane_value =
                    "__shfl_xor_sync(0xffffffffu, " + a.name + ", " + offset + ")";
                if (a.combine == "+") {
                    // The lanes' partial sums; the value before the loop counted once.
                    before += "if (" + lane + " != 0) " + a.name + " = 0; ";
                    after += " " + a.name + " += " + lane_value + ";";
                } else if (a.combine == "if>" || a.combine == "if<") {
                    // The kernel's own comparison, so ties and NaNs go as they did.
                    const std::string other = a.name + "_lane";
                    after += " { const auto " + other + " = " + lane_value + "; if (" + other +
                             (a.combine == "if>" ? " > " : " < ") + a.name + ") " + a.name + " = " +
                             other + "; }";
                } else {
                    after +=
                        " " + a.name + " = " + a.combine + "(" + a.name + ", " + lane_value + ");";
                }
            }
            if (!before.empty()) {
                const std::size_t at =
                    s.loop->has_unroll_pragma ? line_start(s.loop->keyword) : s.loop->keyword;
                const std::string indent = line_indent(source_, s.loop->keyword);
                edits.push_back(
                    {at, 0, s.loop->has_unroll_pragma ? indent + before + "\n" : before});
            }
            if (!after.empty()) {
                const std::size_t end = code_[loop_end(*s.loop) - 1].end;
                edits.push_back({end, 0,
                                 " for (int " + offset + " = 16; " + offset + " > 0; " + offset +
                                     " /= 2) {" + after + " }"});
            }
        }
        return apply_edits(source_, std::move(edits));
    }

  private:
    std::string_view text(std::size_t i) const { return token_at(source_, code_, i); }
    std::string span(TokenRange r) const { return range_text(source_, code_, r); }
    std::string spelling(std::size_t first, std::size_t end) const {
        return range_spelling(source_, code_, {first, end});
    }
    std::size_t line_start(std::size_t offset) const {
        const std::size_t at = source_.rfind('\n', offset);
        std::size_t pragma = at == std::string_view::npos ? 0 : at;
        // The unroll pragma's line is the one before the `for`'s.
        const std::size_t previous = pragma == 0 ? 0 : source_.rfind('\n', pragma - 1);
        return previous == std::string_view::npos ? 0 : previous + 1;
    }
    std::size_t loop_end(const source::KernelLoop& loop) const {
        for (const TokenRange& r : spans_)
            if (code_[r.first].begin == loop.keyword) return r.end;
        return open_;
    }
    bool in_shared_loop(std::size_t i) const {
        return std::any_of(spans_.begin(), spans_.end(),
                           [&](const TokenRange& r) { return r.first <= i && i < r.end; });
    }
    // An invariant expression, or one element of a pointer the kernel never writes at an
    // invariant index (a CSR row's `row_ptr[row]`): the same value for every lane and iteration.
    bool invariant_or_read_only_load(const LoopAnalysis& a, TokenRange r) const {
        if (a.invariant(r)) return true;
        // `__ldg(&p[i])`, as a kernel that loads through the read-only path writes it.
        if (r.end >= r.first + 8 && text(r.first) == "__ldg" && text(r.first + 1) == "(" &&
            text(r.first + 2) == "&" && text(r.end - 1) == ")" &&
            source::matching_bracket(code_, source_, r.first + 1) == r.end - 1)
            r = {r.first + 3, r.end - 1};
        if (r.end < r.first + 4 || text(r.first + 1) != "[" || text(r.end - 1) != "]" ||
            source::matching_bracket(code_, source_, r.first + 1) != r.end - 1)
            return false;
        const std::string pointer(text(r.first));
        const bool read_only_parameter =
            std::any_of(kernel_.parameters.begin(), kernel_.parameters.end(),
                        [&](const source::KernelParameter& p) {
                            return p.is_pointer && p.name == pointer;
                        }) &&
            !kernel_.written_parameters.contains(pointer);
        return read_only_parameter && a.invariant({r.first + 2, r.end - 1});
    }

    // Whether `(` at i opens a call that leaves memory alone (or is no call: a condition, a
    // cast of a type word, a parenthesized expression).
    bool pure_call_before(std::size_t i) const {
        const std::string_view callee = text(i - 1);
        if (callee == ">") {  // a cast (static_cast<float>(x)), or a template's call
            std::size_t j = i - 1;
            for (int depth = 0; j > open_; --j) {
                if (text(j) == ">") ++depth;
                if (text(j) == "<" && --depth == 0) break;
            }
            const std::string_view before = text(j - 1);
            return before == "static_cast" || before == "reinterpret_cast" ||
                   before == "const_cast";
        }
        if (code_[i - 1].kind != source::TokenKind::Identifier) return true;
        return is_one_of(callee, kNotCalls) || is_one_of(callee, kLocalTypeWords) ||
               is_pure_function(callee);
    }

    bool statement_starts_with_star(std::size_t i) const {
        std::size_t j = i;
        while (j > open_ + 1 && text(j - 1) != ";" && text(j - 1) != "{" && text(j - 1) != "}") --j;
        return text(j) == "*";
    }

    std::optional<SharedLoop> read_loop(const source::KernelLoop& loop,
                                        const LoopAnalysis& a) const {
        const LoopShape& shape = a.shape();
        const std::string_view before = text(shape.keyword - 1);
        if (!shape.counted || (shape.comparison != "<" && shape.comparison != "<=") ||
            !invariant_or_read_only_load(a, shape.start) ||
            !invariant_or_read_only_load(a, shape.bound) || a.jumps() || !a.pure_calls() ||
            (before != ";" && before != "{" && before != "}"))
            return std::nullopt;
        // A row's length is known at run time; a loop of a few constant steps (a stencil's
        // neighbours) would leave most lanes idle.
        bool runtime_bound = false;
        for (std::size_t i = shape.bound.first; i < shape.bound.end; ++i)
            runtime_bound = runtime_bound || code_[i].kind == source::TokenKind::Identifier;
        if (!runtime_bound) return std::nullopt;
        const std::string increment = a.spelling(shape.increment);
        const std::string& k = shape.variable;
        if (increment != "++ " + k && increment != k + " ++" && increment != k + " += 1")
            return std::nullopt;
        for (std::size_t i = shape.body.first; i < shape.body.end; ++i)
            if (text(i) == "__shared__" || is_thread_builtin(source_, code_, i))
                return std::nullopt;
        SharedLoop shared{&loop, shape.start, shape.increment, k, {}};
        std::set<std::string> locals, bare;
        std::map<std::string, std::set<std::string>> stored;  // array -> index spellings
        if (!read_modifications(shape.body, locals, bare, stored)) return std::nullopt;
        for (const std::string& name : bare) {
            if (name == k || locals.contains(name)) continue;
            auto accumulator = read_accumulator(shape.body, name);
            if (!accumulator) return std::nullopt;
            shared.accumulators.push_back(std::move(*accumulator));
        }
        for (const auto& [array, spellings] : stored)
            if (locals.contains(array) || !distinct_per_iteration(a, array)) return std::nullopt;
        return shared;
    }

    // The names the body declares, modifies as a whole (`x = `, `x += `, `++x`) and stores
    // through by subscript (`p[i] = `), each store's index spelled; false for a store this
    // reading cannot name (`*p = `, `p->x = `, `f()[i] = `).
    bool read_modifications(TokenRange body, std::set<std::string>& locals,
                            std::set<std::string>& bare,
                            std::map<std::string, std::set<std::string>>& stored) const {
        for (std::size_t i = body.first; i < body.end; ++i) {
            if (code_[i].kind == source::TokenKind::Identifier &&
                (is_one_of(text(i - 1), kLocalTypeWords) ||
                 (text(i - 1) == "*" && is_one_of(text(i - 2), kLocalTypeWords))))
                locals.insert(std::string(text(i)));
            const std::string_view t = text(i);
            const bool prefix =
                (t == "++" || t == "--") && source::is_prefix_operator(code_, source_, i);
            if (!is_one_of(t, kAssignmentOperators) && t != "++" && t != "--") continue;
            std::size_t root = i - 1;
            if (prefix) {
                root = i + 1;
                if (text(root + 1) == "[") {
                    const std::size_t close = source::matching_bracket(code_, source_, root + 1);
                    stored[std::string(text(root))].insert(spelling(root + 2, close));
                } else if (code_[root].kind == source::TokenKind::Identifier &&
                           text(root + 1) != "." && text(root + 1) != "->") {
                    bare.insert(std::string(text(root)));
                } else {
                    return false;
                }
                continue;
            }
            while (text(root) == "." || (root > 1 && text(root - 1) == ".")) --root;
            if (text(root) == "]") {
                std::size_t open = root;
                int depth = 0;
                for (; open > body.first; --open) {
                    if (text(open) == "]") ++depth;
                    if (text(open) == "[" && --depth == 0) break;
                }
                const std::size_t name = open - 1;
                if (code_[name].kind != source::TokenKind::Identifier || text(name - 1) == "." ||
                    text(name - 1) == "->" || text(name - 1) == "]")
                    return false;
                stored[std::string(text(name))].insert(spelling(open + 1, root));
            } else if (code_[root].kind == source::TokenKind::Identifier &&
                       text(root - 1) != "->" && text(root - 1) != "." &&
                       !(text(root - 1) == "*" &&
                         source::is_prefix_operator(code_, source_, root - 1))) {
                bare.insert(std::string(text(root)));
            } else {
                return false;
            }
        }
        return true;
    }

    // `if (e > name) name = e;` (or `{ name = e; }`, `name < e`, `>=`, and the minimum's mirror
    // images) starting at the `if` at token k: "if>" for a maximum, "if<" for a minimum, and one
    // past the statement; nullopt for any other statement.
    std::optional<std::pair<std::string, std::size_t>> conditional_extreme(
        std::size_t k, const std::string& name) const {
        if (text(k) != "if" || text(k + 1) != "(") return std::nullopt;
        const std::size_t close = source::matching_bracket(code_, source_, k + 1);
        std::size_t op = 0;
        for (std::size_t j = k + 2; j < close; ++j) {
            const std::string_view t = text(j);
            if (t == "(" || t == "[")
                j = source::matching_bracket(code_, source_, j);
            else if (t == "<" || t == ">" || t == "<=" || t == ">=") {
                if (op != 0) return std::nullopt;
                op = j;
            } else if (t == "&&" || t == "||" || t == "?") {
                return std::nullopt;
            }
        }
        if (op == 0) return std::nullopt;
        const bool name_left = op == k + 3 && text(k + 2) == name;
        const bool name_right = op + 2 == close && text(op + 1) == name;
        if (name_left == name_right) return std::nullopt;
        const std::size_t other_first = name_left ? op + 1 : k + 2;
        const std::size_t other_end = name_left ? close : op;
        for (std::size_t j = other_first; j < other_end; ++j)
            if (text(j) == name) return std::nullopt;
        std::size_t s = close + 1;
        const bool braced = text(s) == "{";
        if (braced) ++s;
        if (text(s) != name || text(s + 1) != "=") return std::nullopt;
        const std::size_t semicolon = source::statement_end(code_, source_, s) - 1;
        if (text(semicolon) != ";" ||
            spelling(s + 2, semicolon) != spelling(other_first, other_end))
            return std::nullopt;
        std::size_t end = semicolon + 1;
        if (braced) {
            if (text(end) != "}") return std::nullopt;
            ++end;
        }
        // The value replaces the name when it is the larger: a maximum.
        const std::string_view o = text(op);
        const bool other_greater = name_right ? (o == ">" || o == ">=") : (o == "<" || o == "<=");
        return std::pair{std::string(other_greater ? "if>" : "if<"), end};
    }

    // `name` used in the body only as `name += e;`, `name -= e;`, `name = f(name, e);` with f
    // a min or max, or `if (e > name) name = e;` (conditional_extreme), e never naming it, one
    // form throughout.
    std::optional<Accumulator> read_accumulator(TokenRange body, const std::string& name) const {
        Accumulator found{name, ""};
        for (std::size_t i = body.first; i < body.end; ++i) {
            if (const auto extreme = conditional_extreme(i, name)) {
                if (!found.combine.empty() && found.combine != extreme->first) return std::nullopt;
                found.combine = extreme->first;
                i = extreme->second - 1;
                continue;
            }
            if (text(i) != name || text(i - 1) == "." || text(i - 1) == "->") continue;
            const std::string_view before = text(i - 1);
            if (before != ";" && before != "{" && before != "}" && before != ")" &&
                before != "else")
                return std::nullopt;
            const std::size_t end = source::statement_end(code_, source_, i);
            if (end <= i + 2 || text(end - 1) != ";") return std::nullopt;
            std::string combine;
            std::size_t rest = i + 2;
            if (text(i + 1) == "+=" || text(i + 1) == "-=") {
                combine = "+";
            } else if (text(i + 1) == "=" && is_one_of(text(i + 2), kCombiners) &&
                       text(i + 3) == "(" &&
                       source::matching_bracket(code_, source_, i + 3) == end - 2) {
                combine = std::string(text(i + 2));
                rest = i + 4;
                std::size_t self = 0;
                for (std::size_t j = rest; j < end - 2; ++j) {
                    if (text(j) != name) continue;
                    const bool whole_argument = (text(j - 1) == "(" || text(j - 1) == ",") &&
                                                (text(j + 1) == ")" || text(j + 1) == ",");
                    if (!whole_argument || self++ > 0) return std::nullopt;
                }
                if (self != 1) return std::nullopt;
                found.combine = found.combine.empty() ? combine : found.combine;
                if (found.combine != combine) return std::nullopt;
                i = end - 1;
                continue;
            } else {
                return std::nullopt;
            }
            for (std::size_t j = rest; j < end; ++j)
                if (text(j) == name) return std::nullopt;
            found.combine = found.combine.empty() ? combine : found.combine;
            if (found.combine != combine) return std::nullopt;
            i = end - 1;
        }
        if (found.combine.empty()) return std::nullopt;
        return found;
    }

    // Each iteration touches its own element of `array`: every subscript of it in the loop is
    // one index, a sum of invariant terms and the loop variable itself.
    bool distinct_per_iteration(const LoopAnalysis& a, const std::string& array) const {
        const LoopShape& shape = a.shape();
        std::string index;
        for (std::size_t i = shape.body.first; i < shape.body.end; ++i) {
            if (text(i) != array) continue;
            if (text(i + 1) != "[") return false;
            const std::size_t close = source::matching_bracket(code_, source_, i + 1);
            const std::string here = spelling(i + 2, close);
            if (!index.empty() && here != index) return false;
            if (index.empty()) {
                index = here;
                int variable_terms = 0;
                int depth = 0;
                std::size_t term = i + 2;
                for (std::size_t j = i + 2; j <= close; ++j) {
                    const std::string_view t = text(j);
                    if (t == "(" || t == "[") ++depth;
                    if ((t == ")" || t == "]") && j != close) --depth;
                    if (j != close && !(t == "+" && depth == 0)) continue;
                    if (j == term) return false;
                    if (j == term + 1 && text(term) == shape.variable)
                        ++variable_terms;
                    else if (!a.invariant({term, j}))
                        return false;
                    term = j + 1;
                }
                if (variable_terms != 1) return false;
            }
            i = close;
        }
        return true;
    }

    std::string_view source_;
    const source::KernelText& kernel_;
    std::vector<source::Token> code_;
    std::size_t open_ = 0, close_ = 0;
    std::string row_name_;
    TokenRange row_index_;
    std::size_t row_semicolon_ = 0;
    std::vector<SharedLoop> loops_;
    std::vector<TokenRange> spans_;  // each shared loop's tokens, `for` to the end of its body
};

}  // namespace

std::optional<std::string> cooperate_rows(std::string_view source, std::string_view kernel) {
    const source::KernelText text = source::find_kernel(source, kernel);
    RowKernelReader reader(source, text);
    if (!reader.read_row_index() || !reader.read_loops() || !reader.outside_loops_is_uniform())
        return std::nullopt;
    return reader.edit(fresh_name(source, "optiml_lane", {}));
}

}  // namespace optiml::propose
