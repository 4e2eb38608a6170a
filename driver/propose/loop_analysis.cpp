#include "driver/propose/detail/loop_analysis.h"

#include <algorithm>
#include <array>
#include <span>

#include "driver/propose/detail/text_edits.h"
#include "driver/source/rewrite_error.h"

namespace optiml::propose {
namespace {

constexpr std::array<std::string_view, 4> kJumps = {"break", "continue", "return", "goto"};
constexpr std::array<std::string_view, 5> kComparisons = {"<", "<=", ">", ">=", "!="};
// Words before '(' that are not calls, and casts whose '<...>' precedes it.
constexpr std::array<std::string_view, 7> kNotCalls = {
    "if", "for", "while", "switch", "return", "sizeof", "__builtin_expect"};
constexpr std::array<std::string_view, 3> kCasts = {"static_cast", "reinterpret_cast",
                                                    "const_cast"};
constexpr std::array<std::string_view, 14> kTypeWords = {
    "bool",   "char",   "short",  "int",    "long",   "float",    "double",
    "signed", "size_t", "__half", "float2", "float4", "unsigned", "const"};
// Functions without side effects on memory a loop body may call: CUDA's math library (single
// and double precision, intrinsics), min/max/abs, vector constructors, and the __ldg load.
constexpr std::array<std::string_view, 72> kPureFunctions = {
    "expf",      "exp2f",       "exp10f",      "expm1f",      "logf",        "log2f",
    "log10f",    "log1pf",      "powf",        "sqrtf",       "rsqrtf",      "cbrtf",
    "sinf",      "cosf",        "tanf",        "tanhf",       "erff",        "fabsf",
    "fminf",     "fmaxf",       "fmaf",        "floorf",      "ceilf",       "truncf",
    "roundf",    "rintf",       "hypotf",      "fmodf",       "exp",         "exp2",
    "log",       "log2",        "log10",       "pow",         "sqrt",        "rsqrt",
    "sin",       "cos",         "tan",         "tanh",        "erf",         "fabs",
    "fmin",      "fmax",        "fma",         "floor",       "ceil",        "min",
    "max",       "abs",         "__expf",      "__logf",      "__powf",      "__sinf",
    "__cosf",    "__fdividef",  "__fmaf_rn",   "__fmul_rn",   "__fadd_rn",   "__fsqrt_rn",
    "__frcp_rn", "__saturatef", "make_float2", "make_float3", "make_float4", "make_int2",
    "make_int4", "__ldg",       "float",       "int",         "double",      "unsigned"};

}  // namespace

bool is_pure_function(std::string_view name) {
    return is_one_of(name, kPureFunctions);
}

namespace {

bool ends_operand(const source::Token& token, std::string_view text) {
    return token.kind == source::TokenKind::Identifier || token.kind == source::TokenKind::Number ||
           text == ")" || text == "]";
}

}  // namespace

LoopAnalysis::LoopAnalysis(std::string_view source, const source::KernelText& kernel,
                           std::size_t keyword_offset)
    : source_(source), code_(source::code_tokens(source)) {
    const auto at = std::find_if(code_.begin(), code_.end(),
                                 [&](const source::Token& t) { return t.begin == keyword_offset; });
    if (at == code_.end() || source::token_text(source, *at) != "for") {
        throw source::RewriteError("kernel '" + kernel.name + "': no `for` at offset " +
                                   std::to_string(keyword_offset));
    }
    read_shape(static_cast<std::size_t>(at - code_.begin()));
    if (shape_.counted && !shape_.declared_in_header) read_outside_declaration(kernel);
    read_effects();
    read_subscripts(kernel);
}

std::string_view token_at(std::string_view source, const std::vector<source::Token>& code,
                          std::size_t i) {
    return i < code.size() ? source::token_text(source, code[i]) : std::string_view();
}

std::string_view LoopAnalysis::text(std::size_t i) const {
    return token_at(source_, code_, i);
}

std::string range_text(std::string_view source, const std::vector<source::Token>& code,
                       TokenRange range) {
    if (range.empty()) return "";
    return std::string(
        source.substr(code[range.first].begin, code[range.end - 1].end - code[range.first].begin));
}

std::string range_spelling(std::string_view source, const std::vector<source::Token>& code,
                           TokenRange range) {
    std::string joined;
    for (std::size_t i = range.first; i < range.end; ++i) {
        if (!joined.empty()) joined += ' ';
        joined += source::token_text(source, code[i]);
    }
    return joined;
}

std::string LoopAnalysis::text(TokenRange range) const {
    return range_text(source_, code_, range);
}

std::string LoopAnalysis::spelling(TokenRange range) const {
    return range_spelling(source_, code_, range);
}

void LoopAnalysis::read_shape(std::size_t keyword) {
    LoopShape& s = shape_;
    s.keyword = keyword;
    s.open = keyword + 1;
    s.close = source::matching_bracket(code_, source_, s.open);
    if (text(s.open) != "(" || s.close >= code_.size()) {
        throw source::RewriteError("a `for` without a closed header at line " +
                                   std::to_string(code_[keyword].line));
    }
    std::vector<std::size_t> semicolons;
    int depth = 0;
    for (std::size_t i = s.open + 1; i < s.close; ++i) {
        const std::string_view t = text(i);
        if (t == "(" || t == "[" || t == "{") ++depth;
        if (t == ")" || t == "]" || t == "}") --depth;
        if (t == ";" && depth == 0) semicolons.push_back(i);
    }
    s.body = {s.close + 1, source::statement_end(code_, source_, s.close + 1)};
    s.braced = text(s.close + 1) == "{";
    if (semicolons.size() != 2) return;  // a range-based for
    s.init = {s.open + 1, semicolons[0]};
    s.condition = {semicolons[0] + 1, semicolons[1]};
    s.increment = {semicolons[1] + 1, s.close};

    // T k = S: type words, the name, '=', a start (or k = S, the type read from before).
    std::size_t eq = s.init.first;
    while (eq < s.init.end && text(eq) != "=") ++eq;
    if (eq >= s.init.end || eq < s.init.first + 1 || eq + 1 >= s.init.end) return;
    s.declared_in_header = eq >= s.init.first + 2;
    for (std::size_t i = s.init.first; i + 1 < eq; ++i) {
        if (!is_one_of(text(i), kTypeWords) || text(i) == "const") return;
        if (!s.type.empty()) s.type += ' ';
        s.type += text(i);
    }
    if (code_[eq - 1].kind != source::TokenKind::Identifier) return;
    s.variable = std::string(text(eq - 1));
    s.start = {eq + 1, s.init.end};
    // k OP E
    if (s.condition.end < s.condition.first + 3 || text(s.condition.first) != s.variable ||
        !is_one_of(text(s.condition.first + 1), kComparisons)) {
        return;
    }
    s.comparison = std::string(text(s.condition.first + 1));
    s.bound = {s.condition.first + 2, s.condition.end};
    s.counted = true;
}

void LoopAnalysis::read_outside_declaration(const source::KernelText& kernel) {
    // Outside the loop, within the kernel, the variable may appear once: `T... k;`.
    std::size_t declaration = code_.size();
    for (std::size_t i = 0; i < code_.size(); ++i) {
        const bool in_kernel = code_[i].begin > kernel.body_begin && code_[i].end < kernel.body_end;
        const bool in_loop = i >= shape_.keyword && i < shape_.body.end;
        if (!in_kernel || in_loop || text(i) != shape_.variable ||
            code_[i].kind != source::TokenKind::Identifier || text(i - 1) == "." ||
            text(i - 1) == "->")
            continue;
        if (declaration != code_.size() || text(i + 1) != ";") {
            shape_.counted = false;
            return;
        }
        declaration = i;
    }
    std::string type;
    std::size_t first = declaration;
    while (first > 0 && is_one_of(text(first - 1), kTypeWords) && text(first - 1) != "const")
        --first;
    for (std::size_t i = first; i < declaration; ++i)
        type += (type.empty() ? "" : " ") + std::string(text(i));
    if (declaration == code_.size() || type.empty()) {
        shape_.counted = false;
        return;
    }
    shape_.type = type;
}

std::size_t LoopAnalysis::lvalue_root(std::size_t op, bool& through_memory) const {
    std::size_t j = op;
    while (j-- > shape_.open) {
        const std::string_view t = text(j);
        if (t == "]") {
            through_memory = true;
            int depth = 0;
            for (; j > shape_.open; --j) {
                if (text(j) == "]") ++depth;
                if (text(j) == "[" && --depth == 0) break;
            }
            continue;
        }
        if (code_[j].kind != source::TokenKind::Identifier) break;
        const std::string_view before = text(j - 1);
        if (before == "." || before == "->") {
            through_memory = through_memory || before == "->";
            --j;
            continue;
        }
        if (before == "*" && source::is_prefix_operator(code_, source_, j - 1))
            through_memory = true;
        return j;
    }
    through_memory = true;  // `(*p) = `, `f() = `: not a name this analysis can follow
    return code_.size();
}

void LoopAnalysis::read_effects() {
    const std::size_t first = shape_.open;
    const std::size_t end = shape_.body.end;
    for (std::size_t i = first; i < end; ++i) {
        const std::string_view t = text(i);
        if (i >= shape_.body.first && is_one_of(t, kJumps)) jumps_ = true;
        const bool increment = t == "++" || t == "--";
        const bool postfix = increment && ends_operand(code_[i - 1], text(i - 1));
        if (is_one_of(t, kAssignmentOperators) || postfix) {
            bool through_memory = false;
            const std::size_t root = lvalue_root(i, through_memory);
            if (root < code_.size()) modified_.insert(std::string(text(root)));
            if (through_memory && i >= shape_.body.first) stores_memory_ = true;
        } else if (increment) {  // prefix: the operand follows
            std::size_t j = i + 1;
            bool through_memory = j >= end || code_[j].kind != source::TokenKind::Identifier;
            if (!through_memory) modified_.insert(std::string(text(j)));
            for (++j; j < end && (text(j) == "[" || text(j) == "->" || text(j) == "."); ++j) {
                through_memory = through_memory || text(j) != ".";
                j = text(j) == "[" ? source::matching_bracket(code_, source_, j) : j + 1;
            }
            if (through_memory && i >= shape_.body.first) stores_memory_ = true;
        } else if (t == "&" && source::is_prefix_operator(code_, source_, i) &&
                   i + 1 < code_.size() && code_[i + 1].kind == source::TokenKind::Identifier &&
                   text(i + 2) != "[") {
            modified_.insert(std::string(text(i + 1)));  // its address may be stored through
        } else if (t == "(" && i > first) {
            const std::string_view callee = text(i - 1);
            if (code_[i - 1].kind == source::TokenKind::Identifier) {
                if (!is_one_of(callee, kNotCalls) && !is_one_of(callee, kPureFunctions))
                    pure_calls_ = false;
            } else if (callee == ">") {  // a cast, or a template's call
                int depth = 0;
                std::size_t j = i - 1;
                for (; j > first; --j) {
                    if (text(j) == ">") ++depth;
                    if (text(j) == "<" && --depth == 0) break;
                }
                if (!is_one_of(text(j - 1), kCasts)) pure_calls_ = false;
            } else if (callee == ")") {  // (type)(x), or a call through a pointer
                std::size_t j = i - 1;
                int depth = 0;
                for (; j > first; --j) {
                    if (text(j) == ")") ++depth;
                    if (text(j) == "(" && --depth == 0) break;
                }
                for (std::size_t k = j + 1; k + 1 < i; ++k) {
                    if (!is_one_of(text(k), kTypeWords) && text(k) != "*") pure_calls_ = false;
                }
            }
        } else if (t == "asm" || t == "__asm__" || t == "volatile") {
            pure_calls_ = false;
        }
    }
}

void LoopAnalysis::read_subscripts(const source::KernelText& kernel) {
    std::set<std::string> pointers;
    for (const source::KernelParameter& p : kernel.parameters) {
        if (p.is_pointer && !p.name.empty()) pointers.insert(p.name);
    }
    // The tokens of top-level statements of the body that hold no ?:, && or ||.
    std::vector<TokenRange> plain;
    const auto add_statement = [&](std::size_t s, std::size_t e) {
        static constexpr std::array<std::string_view, 7> kControl = {"if",     "for", "while", "do",
                                                                     "switch", "{",   "else"};
        if (is_one_of(text(s), kControl)) return;
        for (std::size_t i = s; i < e; ++i) {
            if (text(i) == "?" || text(i) == "&&" || text(i) == "||") return;
        }
        plain.push_back({s, e});
    };
    if (shape_.braced) {
        for (std::size_t s = shape_.body.first + 1; s + 1 < shape_.body.end;) {
            const std::size_t e = std::max(source::statement_end(code_, source_, s), s + 1);
            add_statement(s, e);
            s = e;
        }
    } else {
        add_statement(shape_.body.first, shape_.body.end);
    }

    for (std::size_t i = shape_.open; i < shape_.body.end; ++i) {
        if (code_[i].kind != source::TokenKind::Identifier || text(i + 1) != "[" ||
            !pointers.contains(std::string(text(i)))) {
            continue;
        }
        const std::string_view before = text(i - 1);
        if (before == "." || before == "->" || before == "::") continue;
        const std::size_t close = source::matching_bracket(code_, source_, i + 1);
        if (close >= shape_.body.end) continue;
        Subscript s;
        s.pointer = std::string(text(i));
        s.index = {i + 2, close};
        s.whole = {i, close + 1};
        if (before == "&" && text(i - 2) == "(" && text(i - 3) == "__ldg" &&
            text(close + 1) == ")") {
            s.through_ldg = true;
            s.whole = {i - 3, close + 2};
        } else if (before == "&" && source::is_prefix_operator(code_, source_, i - 1)) {
            s.whole = {i - 1, close + 1};  // an address, not a load: kept whole for used_bare
        }
        s.unconditional = std::any_of(plain.begin(), plain.end(), [&](const TokenRange& r) {
            return r.first <= i && i < r.end;
        });
        subscripts_.push_back(s);
        i = close;
    }
}

bool LoopAnalysis::invariant(TokenRange range) const {
    static constexpr std::array<std::string_view, 8> kOperators = {"+", "-", "*", "/",
                                                                   "%", "(", ")", "."};
    for (std::size_t i = range.first; i < range.end; ++i) {
        const source::Token& token = code_[i];
        const std::string_view t = text(i);
        if (token.kind == source::TokenKind::Number) continue;
        if (token.kind == source::TokenKind::Punctuator) {
            if (!is_one_of(t, kOperators)) return false;
            continue;
        }
        if (token.kind != source::TokenKind::Identifier) return false;
        if (i > range.first && text(i - 1) == ".") continue;  // blockIdx.x
        if (text(i + 1) == "(" || modified_.contains(std::string(t))) return false;
    }
    return !range.empty();
}

bool LoopAnalysis::used_bare(const std::string& name) const {
    std::set<std::size_t> loads;  // the pointer token of each subscript that loads or stores
    for (const Subscript& s : subscripts_) {
        if (text(s.whole.first) != "&") loads.insert(s.index.first - 2);
    }
    for (std::size_t i = shape_.open; i < shape_.body.end; ++i) {
        if (code_[i].kind != source::TokenKind::Identifier || text(i) != name) continue;
        if (text(i - 1) == "." || text(i - 1) == "->") continue;
        if (!loads.contains(i)) return true;
    }
    return false;
}

const source::Token* directive_before(const std::vector<source::Token>& tokens,
                                      std::size_t offset) {
    const auto at = std::find_if(tokens.begin(), tokens.end(),
                                 [&](const source::Token& t) { return t.begin == offset; });
    for (auto it = at; it != tokens.begin();) {
        --it;
        if (it->kind == source::TokenKind::Whitespace || it->kind == source::TokenKind::Comment)
            continue;
        return it->kind == source::TokenKind::Preprocessor ? &*it : nullptr;
    }
    return nullptr;
}

LoopSpan loop_span(std::string_view source, const source::KernelLoop& loop,
                   const LoopAnalysis& analysis) {
    LoopSpan span;
    span.begin = loop.keyword;
    span.end = analysis.code()[analysis.shape().body.end - 1].end;
    span.indent = line_indent(source, loop.keyword);
    if (loop.has_unroll_pragma) {
        const std::vector<source::Token> tokens = source::lex(source);
        if (const source::Token* directive = directive_before(tokens, loop.keyword)) {
            span.pragma = std::string(source::token_text(source, *directive));
            span.begin = directive->begin - line_indent(source, directive->begin).size();
            span.lead = span.indent;
        }
    }
    return span;
}

std::string edited_text(std::string_view source, std::size_t begin, std::size_t end,
                        const std::vector<TextEdit>& edits) {
    std::vector<TextEdit> shifted;
    for (const TextEdit& e : edits) {
        if (e.offset >= begin && e.offset + e.length <= end)
            shifted.push_back({e.offset - begin, e.length, e.text});
    }
    return apply_edits(source.substr(begin, end - begin), std::move(shifted));
}

const source::KernelLoop* loop_on_line(const source::KernelText& kernel, int line) {
    const auto loop = std::find_if(kernel.loops.begin(), kernel.loops.end(),
                                   [&](const source::KernelLoop& l) { return l.line == line; });
    return loop == kernel.loops.end() ? nullptr : &*loop;
}

std::set<std::string> declared_names(std::string_view source,
                                     const std::vector<source::Token>& code, TokenRange range) {
    std::set<std::string> names;
    for (std::size_t i = std::max<std::size_t>(range.first, 1); i < range.end; ++i) {
        if (code[i].kind != source::TokenKind::Identifier) continue;
        const std::string_view before = token_at(source, code, i - 1);
        if (is_one_of(before, kLocalTypeWords) ||
            (before == "*" && i >= 2 &&
             is_one_of(token_at(source, code, i - 2), kLocalTypeWords)) ||
            (code[i - 1].kind == source::TokenKind::Identifier && !is_one_of(before, kNotTypes)))
            names.insert(std::string(token_at(source, code, i)));
    }
    return names;
}

std::string without_const(std::string_view type) {
    std::string out;
    for (const source::Token& token : source::code_tokens(type)) {
        const std::string_view word = source::token_text(type, token);
        if (word == "const") continue;
        if (!out.empty()) out += ' ';
        out += word;
    }
    return out;
}

std::string pointee_type(std::string_view source, const source::KernelParameter& p) {
    if (!p.is_pointer) return "";
    const std::string_view head = source.substr(p.begin, p.pointer_star - p.begin);
    std::string type;
    for (const source::Token& token : source::code_tokens(head)) {
        const std::string_view word = source::token_text(head, token);
        if (word == "const" || word == "volatile" || word == "__restrict__") continue;
        if (!type.empty()) type += ' ';
        type += word;
    }
    return type;
}

std::string line_indent(std::string_view source, std::size_t offset) {
    const std::size_t newline =
        offset == 0 ? std::string_view::npos : source.rfind('\n', offset - 1);
    std::size_t i = newline == std::string_view::npos ? 0 : newline + 1;
    const std::size_t first = i;
    while (i < offset && (source[i] == ' ' || source[i] == '\t')) ++i;
    return std::string(source.substr(first, i - first));
}

std::string indent_step(std::string_view indent) {
    return indent.find('\t') != std::string_view::npos ? "\t" : "    ";
}

std::string indent_following_lines(std::string_view text, std::string_view extra) {
    std::string out;
    std::size_t begin = 0;
    bool first = true;
    while (begin <= text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(begin, end - begin);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
        if (!first) out += '\n';
        if (!first && !line.empty()) out += extra;
        out += line;
        first = false;
        begin = end + 1;
    }
    return out;
}

std::string fresh_name(std::string_view source, const std::string& base,
                       const std::set<std::string>& taken) {
    std::set<std::string_view> used;
    for (const source::Token& token : source::code_tokens(source)) {
        if (token.kind == source::TokenKind::Identifier)
            used.insert(source::token_text(source, token));
    }
    std::string name = base;
    for (int n = 2; used.contains(name) || taken.contains(name); ++n) {
        name = base + "_" + std::to_string(n);
    }
    return name;
}

}  // namespace optiml::propose
