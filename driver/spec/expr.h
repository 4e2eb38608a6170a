// Integer expressions used by specs for sizes, launch geometry and constraints.
// A deliberately tiny language: literals, names, + - * / %, unary -, !, comparisons
// (< <= > >= == !=), && ||, parentheses, and the functions ceil_div(a,b), min(a,b), max(a,b).
// The same parsed tree evaluates on the host (tuning) and prints as C++ (generated launcher).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::expr {

using Env = std::map<std::string, std::int64_t, std::less<>>;

// Thrown by parse() (bad syntax) and eval() (unknown name, division by zero).
// what() is a plain sentence without file or field; callers add those.
class ExprError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct Node;

class Expr {
  public:
    Expr();  // the literal 0
    static Expr parse(std::string_view text);
    static Expr literal(std::int64_t value);

    std::int64_t eval(const Env& env) const;

    // C++ source for this expression. `resolve` maps a name to the C++ text that stands for it
    // (an argument cast to long long, a parameter's literal value); returning nullopt is an
    // error (ExprError naming the unknown name). Functions print as ::optiml::rt::ceil_div etc.;
    // `/` and `%` as ::optiml::rt::div/mod (0 for a zero divisor instead of a trap); literals as
    // 256LL; every operation is parenthesised. A resolved text that is not a single token
    // (identifier, literal, qualified name) is wrapped in parentheses.
    std::string to_cpp(
        const std::function<std::optional<std::string>(std::string_view)>& resolve) const;

    // Names the expression refers to, sorted and unique.
    std::vector<std::string> names() const;

    // The text it was parsed from (or the literal's digits).
    const std::string& text() const { return text_; }

  private:
    std::shared_ptr<const Node> root_;
    std::string text_;
};

}  // namespace optiml::expr
