// What the loop rewrites (vectorize_loads, hoist_invariant_loads, accumulate_in_register) must
// know of one `for` loop of a kernel, read from its code tokens: its header and body, whether it
// is a counted loop `for (T k = S; k OP E; INC)`, which names its body modifies, whether it
// stores to memory, jumps out or calls anything but pure math, and where it subscripts the
// kernel's pointer parameters. Conservative by design: what it cannot read counts against the
// rewrite (an lvalue it cannot name is a store to memory, an unknown call may do anything).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "driver/propose/detail/text_edits.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"

namespace optiml::propose {

// A range [first, end) of code tokens.
struct TokenRange {
    std::size_t first = 0, end = 0;
    bool empty() const { return first >= end; }
};

// Code token i's text; "" past the end (so a reader may look ahead without bounds checks).
std::string_view token_at(std::string_view source, const std::vector<source::Token>& code,
                          std::size_t i);
// The source text of `range` of `code` (the code tokens of `source`), as written; "" when empty.
std::string range_text(std::string_view source, const std::vector<source::Token>& code,
                       TokenRange range);
// The range's tokens joined by single spaces: two spellings of one expression compare equal.
std::string range_spelling(std::string_view source, const std::vector<source::Token>& code,
                           TokenRange range);

// `p[index]`, or `__ldg(&p[index])` (whole: from `__ldg` to its ')'), of a pointer parameter.
struct Subscript {
    std::string pointer;
    TokenRange index;  // inside the brackets
    TokenRange whole;  // the expression as it stands in the code
    bool through_ldg = false;
    bool unconditional = false;  // in a top-level statement of the loop body, outside ?:, &&, ||
};

struct LoopShape {
    std::size_t keyword = 0;          // code token of `for`
    std::size_t open = 0, close = 0;  // the header's parentheses
    TokenRange init, condition, increment;
    TokenRange body;  // the statement after ')', braces included
    bool braced = false;
    // A counted loop `for (T k = S; k OP E; INC)` (T builtin type words, OP one of < <= > >=
    // !=), or `for (k = S; ...)` with `T k;` declared before it and k used nowhere else in the
    // kernel (C89 style, as PolyBench/GPU writes its loops):
    std::string type, variable, comparison;
    TokenRange start, bound;
    bool counted = false;
    bool declared_in_header = false;
};

class LoopAnalysis {
  public:
    // The loop whose `for` is at `keyword_offset` (a KernelLoop's keyword) in the kernel's body.
    LoopAnalysis(std::string_view source, const source::KernelText& kernel,
                 std::size_t keyword_offset);

    const std::vector<source::Token>& code() const { return code_; }
    const LoopShape& shape() const { return shape_; }
    std::string_view text(std::size_t i) const;
    std::string text(TokenRange range) const;  // the source text of the range, as written
    // The range's tokens joined by single spaces: two spellings of one expression compare equal.
    std::string spelling(TokenRange range) const;

    // Names assigned, incremented or whose address is taken in the whole loop (header included);
    // the loop variable among them.
    const std::set<std::string>& modified() const { return modified_; }
    // Whether the body stores through a pointer, a subscript or a member of one (or an lvalue
    // this analysis cannot name).
    bool stores_memory() const { return stores_memory_; }
    bool jumps() const { return jumps_; }            // break, continue, return, goto
    bool pure_calls() const { return pure_calls_; }  // only math functions, casts and __ldg
    // Every name in `range` is an identifier not modified in the loop, or a member after `.`; the
    // tokens are names, numbers, + - * / % and parentheses (no call, load or assignment).
    bool invariant(TokenRange range) const;
    // Whether `name` occurs in the loop as anything but the pointer of a Subscript.
    bool used_bare(const std::string& name) const;
    // Every subscript of a pointer parameter in the loop (header and body), in source order.
    const std::vector<Subscript>& subscripts() const { return subscripts_; }

  private:
    void read_shape(std::size_t keyword);
    void read_outside_declaration(const source::KernelText& kernel);
    void read_effects();
    void read_subscripts(const source::KernelText& kernel);
    std::size_t lvalue_root(std::size_t op, bool& through_memory) const;

    std::string_view source_;
    std::vector<source::Token> code_;
    LoopShape shape_;
    std::set<std::string> modified_;
    bool stores_memory_ = false, jumps_ = false, pure_calls_ = true;
    std::vector<Subscript> subscripts_;
};

// The assignment operators, compound ones included.
inline constexpr std::array<std::string_view, 11> kAssignmentOperators = {
    "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
// Words a local variable's declaration starts with, as the rewrites recognise one (a name right
// after one of them is declared there).
inline constexpr std::array<std::string_view, 16> kLocalTypeWords = {
    "bool",     "char",   "short",  "int",    "long",   "float",   "double", "signed",
    "unsigned", "size_t", "float2", "float4", "__half", "double2", "auto",   "const"};
// Words before a name that make it something other than a declaration of that name.
inline constexpr std::array<std::string_view, 6> kNotTypes = {"return", "else",  "case",
                                                              "goto",   "throw", "sizeof"};

// Every name the code tokens `range` declare: a name after a type word (`int n`, `float* p`) or
// after another name (`uint32_t r`, a typedef or a macro type), but not after one of kNotTypes.
// It may count a few names that are not locals; a real local is always counted where it is
// declared. What rewrites use to keep a thread's own names out of what they compute elsewhere.
std::set<std::string> declared_names(std::string_view source,
                                     const std::vector<source::Token>& code, TokenRange range);

// Whether a call of `name` leaves memory alone: CUDA's math functions and intrinsics, min/max/abs,
// vector constructors, casts written as calls, and the __ldg load (what pure_calls() allows).
bool is_pure_function(std::string_view name);

// The directive right before the token starting at `offset` in `tokens` (all tokens of a
// source), if only blanks and comments lie between; nullptr otherwise.
const source::Token* directive_before(const std::vector<source::Token>& tokens, std::size_t offset);

// Where a loop rewrite replaces `loop`: from the start of its unroll pragma's line when it has
// one (the pragma moves with the loop), else from its `for`, to the end of its body.
struct LoopSpan {
    std::size_t begin = 0, end = 0;
    std::string indent;  // of the `for`'s line
    std::string lead;    // what the new text starts with: the indent when begin starts a line
    std::string pragma;  // the unroll directive's text, "" when none
};
LoopSpan loop_span(std::string_view source, const source::KernelLoop& loop,
                   const LoopAnalysis& analysis);

// The source text of [begin, end) with `edits` (offsets into the whole source) applied.
std::string edited_text(std::string_view source, std::size_t begin, std::size_t end,
                        const std::vector<TextEdit>& edits);

// The loop of `kernel` whose `for` is on `line` (the first there); nullptr when there is none.
const source::KernelLoop* loop_on_line(const source::KernelText& kernel, int line);

// The pointee type of a pointer parameter without qualifiers, words joined by one space
// ("unsigned int"); "" when the parameter is not a pointer.
std::string pointee_type(std::string_view source, const source::KernelParameter& p);
// A type's words without `const`, one blank between them ("const int " -> "int"): the type of a
// copy a rewrite declares.
std::string without_const(std::string_view type);

// The blanks that start the line holding `offset`.
std::string line_indent(std::string_view source, std::size_t offset);

// One level of indentation in a file whose line is indented by `indent`: a tab where it has
// tabs, else four spaces.
std::string indent_step(std::string_view indent);

// `text` with `extra` put before every line but the first, trailing blanks of lines dropped.
std::string indent_following_lines(std::string_view text, std::string_view extra);

// A name of the form `base`, `base_2`, ... that no identifier of `source` spells, nor any in
// `taken`.
std::string fresh_name(std::string_view source, const std::string& base,
                       const std::set<std::string>& taken);

}  // namespace optiml::propose
