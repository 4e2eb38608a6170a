#include "driver/source/detail/parameter_writes.h"

#include <algorithm>
#include <array>
#include <optional>

namespace optiml::source {
namespace {

bool is_assignment(std::string_view op) {
    static constexpr std::array<std::string_view, 11> kAssignments = {
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
    return std::find(kAssignments.begin(), kAssignments.end(), op) != kAssignments.end();
}

bool is_increment(std::string_view op) {
    return op == "++" || op == "--";
}

// One occurrence of a parameter in the body and the tokens around it.
class Use {
  public:
    Use(std::span<const Token> body, std::string_view source, std::size_t at)
        : body_(body), source_(source), at_(at) {}

    bool writes() const {
        if (after_member_access()) return false;  // `s.p`, `q->p`: another variable's member
        const std::size_t chain_end = skip_element_access(at_ + 1);
        const bool dereferenced = chain_end != at_ + 1 || unary_star_before(at_);
        if (dereferenced) return writes_element(chain_end);
        return escapes();
    }

  private:
    std::string_view text(std::size_t i) const {
        return i < body_.size() ? token_text(source_, body_[i]) : std::string_view();
    }

    bool after_member_access() const {
        const std::string_view before = at_ > 0 ? text(at_ - 1) : "";
        return before == "." || before == "->" || before == "::";
    }

    // Past `[...]`, `.member` and `->member` following position i.
    std::size_t skip_element_access(std::size_t i) const {
        while (i < body_.size()) {
            if (text(i) == "[") {
                i = matching_bracket(body_, source_, i) + 1;
            } else if ((text(i) == "." || text(i) == "->") && i + 1 < body_.size() &&
                       body_[i + 1].kind == TokenKind::Identifier) {
                i += 2;
            } else {
                break;
            }
        }
        return i;
    }

    // A unary `op` ('*' or '&') just before position i.
    bool unary_before(std::size_t i, std::string_view op) const {
        return i > 0 && text(i - 1) == op && is_prefix_operator(body_, source_, i - 1);
    }
    bool unary_star_before(std::size_t i) const { return unary_before(i, "*"); }

    bool writes_element(std::size_t chain_end) const {
        if (is_assignment(text(chain_end)) || is_increment(text(chain_end))) return true;
        const std::size_t first = unary_star_before(at_) ? at_ - 1 : at_;
        if (first > 0 && is_increment(text(first - 1))) return true;
        if (unary_before(first, "&")) {  // the element's address escapes, unless into __ldg
            return !(first >= 3 && text(first - 2) == "(" && text(first - 3) == "__ldg");
        }
        return false;
    }

    // The pointer's value itself is used: where does it go?
    bool escapes() const {
        int depth = 0;
        for (std::size_t i = at_; i-- > 0;) {
            const std::string_view t = text(i);
            if (t == ")" || t == "]") {
                ++depth;
            } else if (t == "[" && depth > 0) {
                --depth;
            } else if (t == "(" && depth > 0) {
                --depth;
            } else if (t == "(") {
                if (const auto verdict = verdict_of_enclosing_parenthesis(i)) return *verdict;
            } else if ((t == ";" || t == "{" || t == "}") && depth == 0) {
                return assigned_to_mutable_pointer(i + 1);
            }
        }
        return assigned_to_mutable_pointer(0);
    }

    // nullopt: a grouping parenthesis, look further out.
    std::optional<bool> verdict_of_enclosing_parenthesis(std::size_t open) const {
        const std::string_view callee = open > 0 ? text(open - 1) : "";
        if (callee == "__ldg") return false;
        if (callee == ">") return cast_to_mutable_pointer(open - 1);
        if (open > 0 && body_[open - 1].kind == TokenKind::Identifier) {
            static constexpr std::array<std::string_view, 6> kNotCalls = {
                "if", "while", "for", "switch", "return", "sizeof"};
            return std::find(kNotCalls.begin(), kNotCalls.end(), callee) == kNotCalls.end();
        }
        if (unary_star_before(open)) {  // *(p + i) = ...
            const std::size_t close = matching_bracket(body_, source_, open);
            const std::string_view after = text(close + 1);
            if (is_assignment(after) || is_increment(after)) return true;
        }
        return std::nullopt;
    }

    // xxx_cast<T>(p) with `close` at the '>': T a pointer type without const.
    bool cast_to_mutable_pointer(std::size_t close) const {
        bool pointer = false;
        bool is_const = false;
        int depth = 0;
        for (std::size_t i = close + 1; i-- > 0;) {
            const std::string_view t = text(i);
            if (t == ">") ++depth;
            if (t == ">>") depth += 2;
            if (t == "<" && --depth == 0) break;
            pointer = pointer || t == "*";
            is_const = is_const || t == "const";
        }
        return pointer && !is_const;
    }

    // `T* q = p + i;`: the statement from `first` declares or assigns a pointer it may store
    // through, unless its type says const.
    bool assigned_to_mutable_pointer(std::size_t first) const {
        bool pointer = false;
        bool is_const = false;
        for (std::size_t i = first; i < at_; ++i) {
            const std::string_view t = text(i);
            if (t == "=") return !(pointer && is_const);
            pointer = pointer || t == "*";
            is_const = is_const || t == "const";
        }
        return false;
    }

    std::span<const Token> body_;
    std::string_view source_;
    std::size_t at_;
};

}  // namespace

std::set<std::string> written_pointer_parameters(std::span<const Token> body,
                                                 std::string_view source,
                                                 const std::vector<KernelParameter>& parameters) {
    std::set<std::string> pointers;
    for (const KernelParameter& parameter : parameters) {
        if (parameter.is_pointer && !parameter.name.empty()) pointers.insert(parameter.name);
    }
    std::set<std::string> written;
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i].kind != TokenKind::Identifier) continue;
        const std::string name(token_text(source, body[i]));
        if (pointers.contains(name) && !written.contains(name) && Use(body, source, i).writes()) {
            written.insert(name);
        }
    }
    return written;
}

}  // namespace optiml::source
