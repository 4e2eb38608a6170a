// hoist_invariant_loads and accumulate_in_register: memory a loop touches at the same address in
// every iteration moves to a local before the loop (and, when written, back after it). Both
// wrap the loop in `if (S OP E)`, so that a loop that runs no iteration touches nothing more.
#include <algorithm>
#include <array>
#include <map>
#include <string>

#include "driver/propose/detail/loop_analysis.h"
#include "driver/propose/detail/rewrites.h"
#include "driver/propose/detail/text_edits.h"
#include "driver/source/kernel_text.h"

namespace optiml::propose {
namespace {

// The loop qualifies for moving memory out of it: counted, with a start and bound it does not
// change, no early exit, no call that is not pure math.
bool movable(const LoopAnalysis& a) {
    const LoopShape& s = a.shape();
    return s.counted && a.invariant(s.start) && a.invariant(s.bound) && !a.jumps() &&
           a.pure_calls();
}

// `if (S OP E) { before... for (...) {...} after... }` in place of the loop, the loop's text
// edited by `edits`.
std::string guarded(std::string_view source, const source::KernelLoop& loop, const LoopAnalysis& a,
                    const std::vector<std::string>& before, const std::vector<TextEdit>& edits,
                    const std::vector<std::string>& after) {
    const LoopSpan span = loop_span(source, loop, a);
    const LoopShape& s = a.shape();
    const std::string step = indent_step(span.indent);
    const std::string start =
        s.type == "int" ? a.text(s.start) : "static_cast<" + s.type + ">(" + a.text(s.start) + ")";
    std::string out =
        span.lead + "if (" + start + " " + s.comparison + " " + a.text(s.bound) + ") {\n";
    for (const std::string& line : before) out += span.indent + step + line + "\n";
    if (!span.pragma.empty()) out += span.indent + step + span.pragma + "\n";
    const std::string body = edited_text(source, loop.keyword, span.end, edits);
    out += span.indent + step + indent_following_lines(body, step) + "\n";
    for (const std::string& line : after) out += span.indent + step + line + "\n";
    out += span.indent + "}";
    return apply_edits(source, {{span.begin, span.end - span.begin, out}});
}

TextEdit replacement(const LoopAnalysis& a, TokenRange range, const std::string& text) {
    const std::size_t begin = a.code()[range.first].begin;
    return {begin, a.code()[range.end - 1].end - begin, text};
}

bool is_write_at(const LoopAnalysis& a, const Subscript& s) {
    static constexpr std::array<std::string_view, 13> kWrites = {
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"};
    const auto is_write = [&](std::string_view t) {
        return std::find(kWrites.begin(), kWrites.end(), t) != kWrites.end();
    };
    const std::string_view before = a.text(s.whole.first - 1);
    return is_write(a.text(s.whole.end)) || before == "++" || before == "--";
}

// The kernel uses `name` only as `name[...]`: no copy of the pointer, no element's address.
bool only_subscripted(std::string_view source, const source::KernelText& kernel,
                      const std::string& name) {
    std::vector<source::Token> body;
    for (const source::Token& token : source::code_tokens(source)) {
        if (token.begin >= kernel.body_begin && token.end <= kernel.body_end) body.push_back(token);
    }
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i].kind != source::TokenKind::Identifier ||
            source::token_text(source, body[i]) != name)
            continue;
        const std::string_view before = i > 0 ? source::token_text(source, body[i - 1]) : "";
        if (before == "." || before == "->" || before == "::") continue;
        if (i + 1 >= body.size() || source::token_text(source, body[i + 1]) != "[") return false;
        if (before == "&" && source::is_prefix_operator(body, source, i - 1)) return false;
    }
    return true;
}

bool is_volatile(const source::KernelParameter& p) {
    for (const source::Token& token : source::code_tokens(p.declaration)) {
        if (source::token_text(p.declaration, token) == "volatile") return true;
    }
    return false;
}

}  // namespace

std::optional<std::string> hoist_invariant_loads(std::string_view source, std::string_view kernel,
                                                 int loop_line) {
    const source::KernelText text = source::find_kernel(source, kernel);
    const source::KernelLoop* loop = loop_on_line(text, loop_line);
    if (!loop) return std::nullopt;
    const LoopAnalysis a(source, text, loop->keyword);
    // Without a store in the loop the compiler already loads an invariant address once.
    if (!movable(a) || !a.stores_memory()) return std::nullopt;
    // Pointers whose elements the loop cannot change: never written by the kernel, or written
    // elsewhere but only ever through subscripts, none of them in this loop a write.
    std::map<std::string, std::string> read_only;  // pointer -> its element type
    for (const source::KernelParameter& p : text.parameters) {
        if (!p.is_pointer || p.name.empty() || is_volatile(p)) continue;
        const bool unchanged =
            !text.written_parameters.contains(p.name) ||
            (only_subscripted(source, text, p.name) && !a.used_bare(p.name) &&
             std::none_of(a.subscripts().begin(), a.subscripts().end(), [&](const Subscript& s) {
                 return s.pointer == p.name && is_write_at(a, s);
             }));
        if (unchanged) read_only[p.name] = pointee_type(source, p);
    }
    struct Load {
        std::string pointer, index, name;
        bool through_ldg = false, unconditional = false;
        std::vector<TokenRange> uses;
    };
    std::vector<Load> loads;
    std::set<std::string> names;
    for (const Subscript& s : a.subscripts()) {
        if (s.whole.first < a.shape().body.first || !read_only.contains(s.pointer)) continue;
        if (a.text(s.whole.first) == "&" || !a.invariant(s.index)) continue;
        const std::string index = a.spelling(s.index);
        auto found = std::find_if(loads.begin(), loads.end(), [&](const Load& l) {
            return l.pointer == s.pointer && l.index == index;
        });
        if (found == loads.end()) {
            loads.push_back({s.pointer, index, "", false, false, {}});
            found = std::prev(loads.end());
            found->index = a.text(s.index);
        }
        found->through_ldg = found->through_ldg || s.through_ldg;
        found->unconditional = found->unconditional || s.unconditional;
        found->uses.push_back(s.whole);
    }
    std::vector<std::string> before;
    std::vector<TextEdit> edits;
    for (Load& load : loads) {
        if (!load.unconditional) continue;  // hoisted, a guarded load could read out of bounds
        load.name = fresh_name(source, load.pointer + "_hoisted", names);
        names.insert(load.name);
        const std::string element = load.pointer + "[" + load.index + "]";
        before.push_back("const " + read_only[load.pointer] + " " + load.name + " = " +
                         (load.through_ldg ? "__ldg(&" + element + ")" : element) + ";");
        for (const TokenRange& use : load.uses) edits.push_back(replacement(a, use, load.name));
    }
    if (before.empty()) return std::nullopt;
    return guarded(source, *loop, a, before, edits, {});
}

std::optional<std::string> accumulate_in_register(std::string_view source, std::string_view kernel,
                                                  int loop_line) {
    const source::KernelText text = source::find_kernel(source, kernel);
    const source::KernelLoop* loop = loop_on_line(text, loop_line);
    if (!loop) return std::nullopt;
    const LoopAnalysis a(source, text, loop->keyword);
    if (!movable(a)) return std::nullopt;
    std::vector<std::string> before, after;
    std::vector<TextEdit> edits;
    std::set<std::string> names;
    for (const source::KernelParameter& p : text.parameters) {
        const std::string type = pointee_type(source, p);
        if (type.empty() || p.name.empty() || is_volatile(p) || a.used_bare(p.name)) continue;
        std::vector<const Subscript*> uses;
        for (const Subscript& s : a.subscripts())
            if (s.pointer == p.name) uses.push_back(&s);
        if (uses.empty()) continue;
        const std::string index = a.spelling(uses.front()->index);
        const bool one_element = std::all_of(uses.begin(), uses.end(), [&](const Subscript* s) {
            return !s->through_ldg && a.text(s->whole.first) != "&" &&
                   a.spelling(s->index) == index;
        });
        const bool written = std::any_of(uses.begin(), uses.end(),
                                         [&](const Subscript* s) { return is_write_at(a, *s); });
        const bool unconditional = std::any_of(uses.begin(), uses.end(),
                                               [](const Subscript* s) { return s->unconditional; });
        if (!one_element || !written || !unconditional || !a.invariant(uses.front()->index) ||
            !only_subscripted(source, text, p.name))
            continue;
        const std::string name = fresh_name(source, p.name + "_acc", names);
        names.insert(name);
        const std::string element = p.name + "[" + a.text(uses.front()->index) + "]";
        before.push_back(type + " " + name + " = " + element + ";");
        after.push_back(element + " = " + name + ";");
        for (const Subscript* s : uses) edits.push_back(replacement(a, s->whole, name));
    }
    if (before.empty()) return std::nullopt;
    return guarded(source, *loop, a, before, edits, after);
}

}  // namespace optiml::propose
