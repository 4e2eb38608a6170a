#include "driver/propose/detail/thread_index.h"

#include <algorithm>
#include <array>
#include <set>

#include "driver/propose/detail/text_edits.h"

namespace optiml::propose {
namespace {

constexpr std::array<std::string_view, 5> kThreadBuiltins = {"threadIdx", "blockIdx", "blockDim",
                                                             "gridDim", "warpSize"};
constexpr std::array<std::string_view, 11> kDeclarationWords = {
    "const",  "int",  "unsigned", "long",     "short",   "signed",
    "size_t", "auto", "int64_t",  "uint32_t", "uint64_t"};
// The global thread index along x (parentheses around the product allowed).
constexpr std::array<std::string_view, 8> kGlobalIndex = {
    "blockIdx . x * blockDim . x + threadIdx . x",
    "blockDim . x * blockIdx . x + threadIdx . x",
    "threadIdx . x + blockIdx . x * blockDim . x",
    "threadIdx . x + blockDim . x * blockIdx . x",
    "( blockIdx . x * blockDim . x ) + threadIdx . x",
    "( blockDim . x * blockIdx . x ) + threadIdx . x",
    "threadIdx . x + ( blockIdx . x * blockDim . x )",
    "threadIdx . x + ( blockDim . x * blockIdx . x )"};

bool compares(std::string_view t) {
    return t == "<" || t == "<=" || t == ">" || t == ">=";
}

}  // namespace

bool is_thread_builtin(std::string_view source, const std::vector<source::Token>& code,
                       std::size_t i) {
    return i < code.size() && is_one_of(source::token_text(source, code[i]), kThreadBuiltins);
}

std::pair<std::size_t, std::size_t> body_braces(const std::vector<source::Token>& code,
                                                const source::KernelText& kernel) {
    std::size_t open = 0, close = 0;
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (code[i].begin == kernel.body_begin) open = i;
        if (code[i].end == kernel.body_end) close = i;
    }
    return {open, close};
}

std::optional<ThreadIndex> find_thread_index(std::string_view source,
                                             const std::vector<source::Token>& code,
                                             std::size_t open, std::size_t close) {
    const auto text = [&](std::size_t i) { return token_at(source, code, i); };
    std::optional<ThreadIndex> found;
    for (std::size_t next = open + 1; next < close;) {
        const std::size_t first = next;
        const std::size_t e = std::max(source::statement_end(code, source, first), first + 1);
        next = e;
        bool uses = false;
        for (std::size_t i = first; i < e && !uses; ++i) uses = is_thread_builtin(source, code, i);
        if (!uses) continue;
        if (found) return std::nullopt;  // a second statement uses them
        std::size_t eq = first;
        while (eq < e && text(eq) != "=") ++eq;
        if (eq + 2 > e || eq < first + 2 || text(e - 1) != ";") return std::nullopt;
        for (std::size_t i = first; i + 1 < eq; ++i)
            if (!is_one_of(text(i), kDeclarationWords)) return std::nullopt;
        if (code[eq - 1].kind != source::TokenKind::Identifier) return std::nullopt;
        std::size_t begin = eq + 1, end = e - 1;
        if (text(begin) == "(" && source::matching_bracket(code, source, begin) == end - 1) {
            ++begin;
            --end;
        }
        // Kernel Tuner's kernels name the block's width by its macro, which the spec launches
        // as blockDim.x: the same index.
        std::string spelled;
        for (std::size_t i = begin; i < end; ++i)
            spelled += (spelled.empty() ? "" : " ") +
                       std::string(text(i) == "block_size_x" ? "blockDim . x" : text(i));
        if (!is_one_of(spelled, kGlobalIndex)) return std::nullopt;
        found = ThreadIndex{std::string(text(eq - 1)), first, {eq + 1, e - 1}, e - 1};
    }
    return found;
}

bool has_directive(std::string_view source, const std::vector<source::Token>& code,
                   std::size_t open, std::size_t close) {
    for (const source::Token& t : source::lex(source))
        if (t.kind == source::TokenKind::Preprocessor && t.begin > code[open].begin &&
            t.end < code[close].end)
            return true;
    return false;
}

std::optional<AxisIndex> axis_index(std::string_view source, const std::vector<source::Token>& code,
                                    std::size_t s, std::size_t e) {
    const auto text = [&](std::size_t i) { return token_at(source, code, i); };
    std::size_t eq = s;
    while (eq < e && text(eq) != "=") ++eq;
    if (eq < s + 2 || eq + 2 > e || text(e - 1) != ";" ||
        code[eq - 1].kind != source::TokenKind::Identifier)
        return std::nullopt;
    for (std::size_t i = s; i + 1 < eq; ++i)
        if (!is_one_of(text(i), kLocalTypeWords)) return std::nullopt;
    const std::string spelled = range_spelling(source, code, {eq + 1, e - 1});
    for (const char axis : {'x', 'y'}) {
        const std::string d(1, axis);
        const std::string block = "blockIdx . " + d, thread = "threadIdx . " + d;
        // The extent: blockDim.D, or the one name or number in its place.
        std::vector<std::string> extents = {"blockDim . " + d};
        for (std::size_t i = eq + 1; i + 1 < e; ++i) {
            const bool word = code[i].kind == source::TokenKind::Identifier ||
                              code[i].kind == source::TokenKind::Number;
            const std::string t(text(i));
            if (word && t != "blockIdx" && t != "threadIdx" && t != "blockDim" && t != d &&
                text(i - 1) != ".")
                extents.push_back(t);
        }
        for (const std::string& width : extents)
            for (const std::string& form :
                 {block + " * " + width + " + " + thread, width + " * " + block + " + " + thread,
                  thread + " + " + block + " * " + width, thread + " + " + width + " * " + block})
                if (spelled == form) {
                    std::string extent = width;
                    std::erase(extent, ' ');
                    return AxisIndex{std::string(text(eq - 1)), axis, extent,
                                     std::string(source.substr(
                                         code[s].begin, code[eq - 1].begin - code[s].begin))};
                }
    }
    return std::nullopt;
}

std::optional<ItemKernel> find_item_kernel(std::string_view source,
                                           const std::vector<source::Token>& code,
                                           const source::KernelText& kernel, std::size_t open,
                                           std::size_t close) {
    const auto index = find_thread_index(source, code, open, close);
    if (!index) return std::nullopt;
    const auto word = [&](std::size_t i) { return token_at(source, code, i); };
    // Items past the original grid must stop where the original's last threads did: the first
    // statement after the index compares it.
    ItemKernel item{*index, index->semicolon + 1, 0, {}, false};
    if (word(item.check) != "if" || item.check + 1 >= close) return std::nullopt;
    item.condition_end = source::matching_bracket(code, source, item.check + 1);
    if (item.condition_end >= close) return std::nullopt;
    bool bounded = false;
    for (std::size_t i = item.check + 2; i + 1 < item.condition_end; ++i)
        if ((word(i) == index->name && compares(word(i + 1))) ||
            (i + 2 < item.condition_end && word(i + 2) == index->name && compares(word(i + 1))))
            bounded = true;
    if (!bounded) return std::nullopt;
    for (std::size_t i = open + 1; i < close; ++i)
        if (is_one_of(word(i), kCollectives) || word(i) == "asm") return std::nullopt;
    // Names declared before the index are shared by a thread's items: none may change after it,
    // nor the index itself (its items would no longer be those of the original threads).
    std::set<std::string> before;
    for (std::size_t i = open + 1; i < index->statement; ++i)
        if (code[i].kind == source::TokenKind::Identifier &&
            is_one_of(word(i - 1), kLocalTypeWords))
            before.insert(std::string(word(i)));
    before.insert(index->name);
    for (const source::KernelParameter& p : kernel.parameters) before.insert(p.name);
    for (std::size_t i = index->semicolon + 1; i < close; ++i) {
        const std::string_view t = word(i);
        const bool increment = t == "++" || t == "--";
        if (!increment && !is_one_of(t, kAssignmentOperators)) continue;
        const bool declared = i >= 2 && is_one_of(word(i - 2), kLocalTypeWords);
        // The name the operator changes: before it, or after a prefix ++/--.
        if (!declared && (before.contains(std::string(word(i - 1))) ||
                          (increment && before.contains(std::string(word(i + 1))))))
            return std::nullopt;
    }
    // The bound itself: `i < E` ahead of the statement it guards, or `i >= E` ahead of `return;`.
    item.returns = word(item.condition_end + 1) == "return" && word(item.condition_end + 2) == ";";
    const std::string_view op = word(item.check + 3);
    if (word(item.check + 2) == index->name && op == (item.returns ? ">=" : "<")) {
        item.limit = {item.check + 4, item.condition_end};
        for (std::size_t i = item.limit.first; i < item.limit.end; ++i) {
            const std::string_view t = word(i);
            if (t == "&&" || t == "||" || t == "?" || compares(t) || t == "==" || t == "!=" ||
                is_one_of(t, kAssignmentOperators))
                item.limit = {};
        }
    }
    return item;
}

}  // namespace optiml::propose
