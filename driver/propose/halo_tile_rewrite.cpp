// stage_halo: a 2-D stencil written one thread per point, whose neighbours' reads (in[i - 1],
// in[i + width], A[(i + 1) * N + j]) hit each point of its input from several threads, loads its
// block's tile of the input with the halo its reads reach into shared memory once, and each read
// takes its value from there.
//
// The reads that qualify are shifts of one another: each index, its locals spelled out, equals
// the first one's at the point (x + dx, y + dy) for some |dx|, |dy| <= kMaxHalo. That is decided
// by evaluating the indices (integer sums and products of the indices, locals and names the block
// shares) at random points and random values of the shared names, so the spelling does not
// matter. A slot of the tile is loaded only where some thread of the block would read it as
// written: the thread at that shift is in the block and the conditions its read sits under (the
// kernel's bound, the branches around it) hold there. So the tile reads nothing the original did
// not, and every read it replaces finds its slot loaded.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
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

constexpr int kMaxHalo = 4;
// Elements of one tile: (blockDim.x + reach x) * (blockDim.y + reach y) of a block of up to 1024
// threads with a halo of 1 (a 1024 x 1 block: 1026 x 3), 12.5 KB of floats.
constexpr int kHaloTileElements = 3200;
constexpr int kMaxTiles = 2;

// Sums and products of integers over names: enough of an index to compare two of them.
class IndexValue {
  public:
    IndexValue(const std::vector<std::string>& tokens, const std::map<std::string, long long>& at)
        : tokens_(tokens), at_(at) {}
    std::optional<long long> value() {
        const auto v = sum();
        return v && next_ == tokens_.size() ? v : std::nullopt;
    }

  private:
    std::string_view peek() const {
        return next_ < tokens_.size() ? std::string_view(tokens_[next_]) : "";
    }
    std::optional<long long> sum() {
        auto v = product();
        while (v && (peek() == "+" || peek() == "-")) {
            const bool plus = tokens_[next_++] == "+";
            const auto r = product();
            if (!r) return std::nullopt;
            v = plus ? *v + *r : *v - *r;
        }
        return v;
    }
    std::optional<long long> product() {
        auto v = unary();
        while (v && peek() == "*") {
            ++next_;
            const auto r = unary();
            if (!r) return std::nullopt;
            v = *v * *r;
        }
        return v;
    }
    std::optional<long long> unary() {
        if (peek() == "-" || peek() == "+") {
            const bool minus = tokens_[next_++] == "-";
            const auto v = unary();
            return v && minus ? std::optional<long long>(-*v) : v;
        }
        if (peek() == "(") {
            ++next_;
            const auto v = sum();
            if (peek() != ")") return std::nullopt;
            ++next_;
            return v;
        }
        if (next_ >= tokens_.size()) return std::nullopt;
        const std::string& t = tokens_[next_++];
        if (std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return t.size() < 10 ? std::optional<long long>(std::stoll(t)) : std::nullopt;
        const auto named = at_.find(t);
        return named == at_.end() ? std::nullopt : std::optional<long long>(named->second);
    }

    const std::vector<std::string>& tokens_;
    const std::map<std::string, long long>& at_;
    std::size_t next_ = 0;
};

struct Local {
    std::string name, statement;     // the declaration as written
    std::vector<std::string> value;  // its initializer's tokens, its own locals spelled out
};

// A branch's condition, as it must hold (`holds`) or fail for a read under it to run.
struct Condition {
    TokenRange range;
    bool holds = true;
};

struct Read {
    std::string pointer;
    TokenRange whole, index;
    std::vector<Condition> conditions;  // what must hold for it to run, outermost first
    std::vector<std::string> value;     // the index's tokens, locals spelled out
    std::size_t locals = 0;             // how many of the locals precede it
    int dx = 0, dy = 0;
};

class HaloReader {
  public:
    HaloReader(std::string_view source, const source::KernelText& kernel)
        : source_(source), kernel_(kernel), code_(source::code_tokens(source)) {
        std::tie(open_, close_) = body_braces(code_, kernel);
    }

    std::optional<std::string> rewrite() {
        if (close_ <= open_ || !read_shape()) return std::nullopt;
        walk(body_.first, body_.end, {});
        if (!names_known() || !place_reads()) return std::nullopt;
        return edit();
    }

  private:
    std::string_view word(std::size_t i) const { return token_at(source_, code_, i); }
    std::size_t end_of(std::size_t s) const {
        return std::max(source::statement_end(code_, source_, s), s + 1);
    }
    std::string text(std::size_t first, std::size_t end) const {
        return range_text(source_, code_, {first, end});
    }
    bool identifier(std::size_t i) const { return code_[i].kind == source::TokenKind::Identifier; }

    // The x and y indices first, then either `if (cond) S` (nothing after it) or
    // `if (cond) return;` and the statements S after it; no thread builtin elsewhere, nothing
    // a block shares already (shared memory, barriers, shuffles).
    bool read_shape() {
        std::vector<std::pair<std::size_t, std::size_t>> statements;
        for (std::size_t s = open_ + 1; s < close_; s = end_of(s))
            statements.emplace_back(s, end_of(s));
        if (statements.size() < 3) return false;
        for (int k = 0; k < 2; ++k) {
            const auto [s, e] = statements[static_cast<std::size_t>(k)];
            const auto index = axis_index(source_, code_, s, e);
            if (!index) return false;
            (index->axis == 'x' ? x_ : y_) = *index;
        }
        if (x_.name.empty() || y_.name.empty()) return false;
        prologue_at_ = statements[1].second - 1;
        // Statements before the bound (PolyBench's convolution sets its coefficients) stay
        // where they are; the tile's loads come before them and never need them.
        std::size_t at = 2;
        while (at < statements.size() && word(statements[at].first) != "if") ++at;
        if (at == statements.size()) return false;
        const std::size_t s = statements[at].first;
        if (word(s + 1) != "(") return false;
        const std::size_t close = source::matching_bracket(code_, source_, s + 1);
        bound_ = {s + 2, close};
        if (word(close + 1) == "return" && word(close + 2) == ";") {
            bound_holds_ = false;
            body_ = {close + 3, close_};
        } else {
            if (at + 1 != statements.size() || word(close + 1) != "{") return false;
            body_ = {close + 2, statements[at].second - 1};
        }
        if (!pure(s + 2, close)) return false;
        for (std::size_t i = statements[2].first; i < close_; ++i)
            if (is_thread_builtin(source_, code_, i) || is_one_of(word(i), kCollectives))
                return false;
        for (const source::KernelParameter& p : kernel_.parameters)
            if (p.is_pointer && !kernel_.written_parameters.contains(p.name))
                inputs_.insert(p.name);
        return true;
    }

    // Names, numbers, arithmetic and comparisons only: a condition the load may evaluate at
    // another point without reading memory or changing anything.
    bool pure(std::size_t first, std::size_t end) const {
        static constexpr std::array<std::string_view, 20> kOperators = {
            "+",  "-",  "*",  "/",  "%",  "(", ")", "<", ">", "<=",
            ">=", "==", "!=", "&&", "||", "!", "&", "|", "^", "~"};
        for (std::size_t i = first; i < end; ++i) {
            const auto kind = code_[i].kind;
            if (kind == source::TokenKind::Identifier) {
                if (word(i + 1) == "(" || word(i + 1) == "[") return false;
            } else if (kind != source::TokenKind::Number && !is_one_of(word(i), kOperators)) {
                return false;
            }
        }
        return true;
    }

    // The statements of [first, end): declarations at the top level are locals; an if's branches
    // add their condition; reads in any other statement qualify unless they sit in a loop or
    // behind ?:, && or || (they might not run).
    void walk(std::size_t first, std::size_t end, const std::vector<Condition>& conditions) {
        for (std::size_t s = first; s < end;) {
            const std::size_t e = end_of(s);
            const std::string_view w = word(s);
            if (w == "{") {
                walk(s + 1, e - 1, conditions);
            } else if (w == "if" && word(s + 1) == "(") {
                const std::size_t close = source::matching_bracket(code_, source_, s + 1);
                const std::size_t then_end = end_of(close + 1);
                if (pure(s + 2, close)) {
                    std::vector<Condition> then = conditions, other = conditions;
                    then.push_back({{s + 2, close}, true});
                    other.push_back({{s + 2, close}, false});
                    walk(close + 1, std::min(then_end, e), then);
                    if (then_end < e && word(then_end) == "else") walk(then_end + 1, e, other);
                }
            } else if (conditions.empty() && declaration(s, e)) {
            } else if (w != "for" && w != "while" && w != "do" && w != "switch") {
                read_statement(s, e, conditions);
            }
            s = e;
        }
    }

    // `T name = init;` with a pure initializer: a local the load can compute at another point.
    // Returns whether it read one.
    bool declaration(std::size_t s, std::size_t e) {
        std::size_t name = s;
        while (name < e && is_one_of(word(name), kLocalTypeWords)) ++name;
        if (name == s && !(identifier(s) && identifier(s + 1))) return false;
        if (name == s) ++name;
        if (!identifier(name) || word(name + 1) != "=") return false;
        // A local from memory is a statement like any other: its reads may qualify, and an
        // index or condition that names it does not (names_known).
        if (!pure(name + 2, e - 1)) return false;
        Local local{std::string(word(name)), text(s, e), {}};
        local.value = spelled(name + 2, e - 1);
        locals_.push_back(local);
        return true;
    }

    std::vector<std::string> spelled(std::size_t first, std::size_t end) const {
        std::vector<std::string> out;
        for (std::size_t i = first; i < end; ++i) {
            const std::string w(word(i));
            const auto local = std::find_if(locals_.begin(), locals_.end(),
                                            [&](const Local& l) { return l.name == w; });
            if (identifier(i) && local != locals_.end()) {
                out.push_back("(");
                out.insert(out.end(), local->value.begin(), local->value.end());
                out.push_back(")");
            } else {
                out.push_back(w);
            }
        }
        return out;
    }

    void read_statement(std::size_t s, std::size_t e, const std::vector<Condition>& conditions) {
        for (std::size_t i = s; i < e; ++i)
            if (word(i) == "?" || word(i) == "&&" || word(i) == "||") return;
        for (std::size_t i = s; i < e; ++i) {
            if (!identifier(i) || word(i + 1) != "[" || !inputs_.contains(std::string(word(i))) ||
                word(i - 1) == "." || word(i - 1) == "->")
                continue;
            const std::size_t close = source::matching_bracket(code_, source_, i + 1);
            if (close >= e || !pure(i + 2, close)) continue;
            TokenRange whole = {i, close + 1};
            if (word(i - 1) == "&") {  // only `__ldg(&p[index])` as a whole: not an address
                if (word(i - 2) != "(" || word(i - 3) != "__ldg" || word(close + 1) != ")")
                    continue;
                whole = {i - 3, close + 2};
            }
            Read read{std::string(word(i)), whole, {i + 2, close}, conditions, {}, locals_.size()};
            read.value = spelled(i + 2, close);
            reads_.push_back(read);
            i = close;
        }
    }

    // What the load computes at another point must mean there what it means at the thread's:
    // the indices and the locals are never changed, a read's index (its locals spelled out)
    // names no other local of the thread, and its conditions none but the locals declared
    // before it. Reads that do are left as they are.
    bool names_known() {
        std::set<std::string> fixed = {x_.name, y_.name};
        for (const Local& l : locals_) fixed.insert(l.name);
        const std::set<std::string> declared = declared_names(source_, code_, {open_ + 1, close_});
        for (std::size_t i = open_ + 1; i < close_; ++i) {
            const std::string_view before = word(i - 1), after = word(i + 1);
            if (identifier(i) && fixed.contains(std::string(word(i))) && before != "." &&
                before != "->" &&
                (is_one_of(after, kAssignmentOperators) || after == "++" || after == "--" ||
                 before == "++" || before == "--") &&
                !(is_one_of(before, kLocalTypeWords) || identifier(i - 1)))
                return false;
        }
        for (std::size_t i = bound_.first; i < bound_.end; ++i)
            if (declared.contains(std::string(word(i))) && word(i) != x_.name && word(i) != y_.name)
                return false;  // a local the load does not compute
        std::erase_if(reads_, [&](const Read& r) {
            for (const std::string& t : r.value)
                if (declared.contains(t) && t != x_.name && t != y_.name) return true;
            std::set<std::string> known = {x_.name, y_.name};
            for (std::size_t l = 0; l < r.locals; ++l) known.insert(locals_[l].name);
            for (const Condition& c : r.conditions)
                for (std::size_t i = c.range.first; i < c.range.end; ++i)
                    if (identifier(i) && declared.contains(std::string(word(i))) &&
                        !known.contains(std::string(word(i))))
                        return true;
            return false;
        });
        return !reads_.empty();
    }

    // Each pointer's reads as shifts of its first; the pointers with at least two points.
    bool place_reads() {
        std::mt19937_64 random(7);
        std::vector<std::map<std::string, long long>> points(4);
        for (auto& at : points) {
            for (const Read& r : reads_)
                for (const std::string& t : r.value)
                    if (!t.empty() &&
                        (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_'))
                        at[t] = static_cast<long long>(random() % 4000) + 40;
        }
        const auto value_at = [&](const Read& r, std::map<std::string, long long> at, int dx,
                                  int dy) {
            at[x_.name] += dx;
            at[y_.name] += dy;
            return IndexValue(r.value, at).value();
        };
        std::map<std::string, std::vector<Read>> by_pointer;
        for (const Read& r : reads_) by_pointer[r.pointer].push_back(r);
        for (auto& [pointer, reads] : by_pointer) {
            std::vector<Read> placed;
            for (Read r : reads) {
                std::vector<std::optional<long long>> mine;  // its index at each point
                for (const auto& at : points) mine.push_back(value_at(r, at, 0, 0));
                bool found = false;
                for (int dy = -kMaxHalo; dy <= kMaxHalo && !found; ++dy)
                    for (int dx = -kMaxHalo; dx <= kMaxHalo && !found; ++dx) {
                        found = true;
                        for (std::size_t k = 0; k < points.size() && found; ++k)
                            found =
                                mine[k] && mine[k] == value_at(reads.front(), points[k], dx, dy);
                        if (found) std::tie(r.dx, r.dy) = std::pair(dx, dy);
                    }
                if (found) placed.push_back(r);
            }
            const bool spread = std::any_of(placed.begin(), placed.end(), [&](const Read& r) {
                return r.dx != placed.front().dx || r.dy != placed.front().dy;
            });
            if (spread && placed.front().dx == 0 && placed.front().dy == 0)  // x and y move it
                tiles_.push_back(placed);
        }
        if (tiles_.size() > static_cast<std::size_t>(kMaxTiles)) tiles_.resize(kMaxTiles);
        return !tiles_.empty();
    }

    std::string edit() const;
    // `const T x = static_cast<T>(X); const T y = ...;`: the indices declared at another point.
    std::string point(const std::string& x, const std::string& y) const;
    // The first `count` locals' declarations, as written, one after another.
    std::string locals_before(std::size_t count) const;
    // The bound and the branches `read` runs under, as one condition.
    std::string conditions_of(const Read& read) const;

    std::string_view source_;
    const source::KernelText& kernel_;
    std::vector<source::Token> code_;
    std::size_t open_ = 0, close_ = 0, prologue_at_ = 0;
    AxisIndex x_, y_;
    TokenRange bound_, body_;
    bool bound_holds_ = true;  // false: `if (bound) return;`
    std::set<std::string> inputs_;
    std::vector<Local> locals_;
    std::vector<Read> reads_;
    std::vector<std::vector<Read>> tiles_;
};

// " + n", " - n" or nothing.
std::string shifted(int n) {
    return n == 0 ? "" : (n > 0 ? " + " : " - ") + std::to_string(std::abs(n));
}

std::string HaloReader::point(const std::string& x, const std::string& y) const {
    const std::string xt = without_const(x_.type), yt = without_const(y_.type);
    return "const " + xt + " " + x_.name + " = static_cast<" + xt + ">(" + x + "); const " + yt +
           " " + y_.name + " = static_cast<" + yt + ">(" + y + "); ";
}

std::string HaloReader::locals_before(std::size_t count) const {
    std::string out;
    for (std::size_t l = 0; l < count; ++l) out += locals_[l].statement + " ";
    return out;
}

std::string HaloReader::conditions_of(const Read& read) const {
    std::string out = (bound_holds_ ? "(" : "!(") + text(bound_.first, bound_.end) + ")";
    for (const Condition& c : read.conditions)
        out +=
            std::string(" && ") + (c.holds ? "(" : "!(") + text(c.range.first, c.range.end) + ")";
    return out;
}

// The prologue, on the line of the second index: the tiles, whether this block's shape lets them
// hold it, and their loads, before one barrier every thread reaches. Then each read of a tile's
// pointer takes its slot where the block is staged.
std::string HaloReader::edit() const {
    std::set<std::string> taken;
    const std::string staged = fresh_name(source_, "optiml_staged", taken);
    taken.insert(staged);
    const std::string u = staged + "_u", v = staged + "_v", need = staged + "_need";
    std::string prologue, fits = "blockDim.z == 1 && (" + x_.extent + ") == blockDim.x && (" +
                                 y_.extent + ") == blockDim.y";
    std::vector<TextEdit> edits;
    for (const std::vector<Read>& reads : tiles_) {
        // The tile spans the shifts' reach on each side: slot (u, v) holds the first read's
        // element at (x0 + lo_x + u, y0 + lo_y + v), (x0, y0) the block's first point.
        int lo_x = 0, hi_x = 0, lo_y = 0, hi_y = 0;
        for (const Read& r : reads)
            lo_x = std::min(lo_x, r.dx), hi_x = std::max(hi_x, r.dx), lo_y = std::min(lo_y, r.dy),
            hi_y = std::max(hi_y, r.dy);
        const std::string name = fresh_name(source_, "optiml_halo", taken);
        taken.insert(name);
        const auto param = std::find_if(kernel_.parameters.begin(), kernel_.parameters.end(),
                                        [&](const auto& p) { return p.name == reads[0].pointer; });
        const std::string width = "(blockDim.x + " + std::to_string(hi_x - lo_x) + ")";
        const std::string height = "(blockDim.y + " + std::to_string(hi_y - lo_y) + ")";
        fits += " && " + width + " * " + height + " <= " + std::to_string(kHaloTileElements);
        const std::string block_x = "static_cast<int>(blockIdx.x * blockDim.x) + ",
                          block_y = "static_cast<int>(blockIdx.y * blockDim.y) + ";
        // Which reads would fetch the slot: the thread they shift from, in the block, under
        // their conditions; one guard per shift and conditions.
        std::string needed = "bool " + need + " = false; ";
        std::set<std::string> guards;
        for (const Read& r : reads) {
            const std::string tx = "(" + u + shifted(lo_x - r.dx) + ")",
                              ty = "(" + v + shifted(lo_y - r.dy) + ")";
            const std::string guard = "if (!" + need + " && " + tx + " >= 0 && " + tx +
                                      " < static_cast<int>(blockDim.x) && " + ty + " >= 0 && " +
                                      ty + " < static_cast<int>(blockDim.y)) { " +
                                      point(block_x + tx, block_y + ty) + locals_before(r.locals) +
                                      need + " = " + conditions_of(r) + "; } ";
            if (guards.insert(guard).second) needed += guard;
        }
        prologue += " __shared__ " + pointee_type(source_, *param) + " " + name + "[" +
                    std::to_string(kHaloTileElements) + "];";
        // Rows of the tile a block's row of threads apart, slots of a row a warp's width apart:
        // no division, and a warp's loads along a row coalesce.
        prologue += " if (" + staged + ") for (int " + v + " = static_cast<int>(threadIdx.y); " +
                    v + " < static_cast<int>" + height + "; " + v +
                    " += static_cast<int>(blockDim.y)) for (int " + u +
                    " = static_cast<int>(threadIdx.x); " + u + " < static_cast<int>" + width +
                    "; " + u + " += static_cast<int>(blockDim.x)) { " + needed + "if (" + need +
                    ") { " + point(block_x + u + shifted(lo_x), block_y + v + shifted(lo_y)) +
                    locals_before(reads[0].locals) + name + "[" + v + " * " + width + " + " + u +
                    "] = " + text(reads[0].whole.first, reads[0].whole.end) + "; } }";
        for (const Read& r : reads) {
            const std::string slot = "(threadIdx.y + " + std::to_string(r.dy - lo_y) + ") * " +
                                     width + " + threadIdx.x + " + std::to_string(r.dx - lo_x);
            edits.push_back({code_[r.whole.first].begin,
                             code_[r.whole.end - 1].end - code_[r.whole.first].begin,
                             "(" + staged + " ? " + name + "[" + slot +
                                 "] : " + text(r.whole.first, r.whole.end) + ")"});
        }
    }
    edits.push_back(
        {code_[prologue_at_].end, 0,
         " const bool " + staged + " = " + fits + ";" + prologue + " __syncthreads();"});
    return apply_edits(source_, std::move(edits));
}

}  // namespace

std::optional<std::string> stage_halo(std::string_view source, std::string_view kernel) {
    const source::KernelText text = source::find_kernel(source, kernel);
    return HaloReader(source, text).rewrite();
}

}  // namespace optiml::propose
