// Evaluation, C++ printing and name listing of parsed expressions (parsing: expr_parser.cpp).
#include "driver/spec/expr.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <utility>

#include "driver/spec/detail/expr_node.h"

namespace optiml::expr {
namespace {

using Resolver = std::function<std::optional<std::string>(std::string_view)>;

class Evaluator {
  public:
    Evaluator(const Env& env, const std::string& text) : env_(env), text_(text) {}

    std::int64_t eval(const Node& node) const {
        switch (node.kind) {
            case Node::Kind::Literal:
                return node.value;
            case Node::Kind::Name: {
                const auto found = env_.find(node.name);
                if (found == env_.end()) throw ExprError("unknown name '" + node.name + "'");
                return found->second;
            }
            case Node::Kind::Unary:
                return unary(node);
            case Node::Kind::Binary:
                return binary(node);
            case Node::Kind::Call:
                return call(node);
        }
        throw ExprError("corrupt expression tree");  // unreachable: every kind is handled above
    }

  private:
    // The source text of `node`, for messages.
    std::string where(const Node& node) const {
        if (node.end <= node.begin || node.end > text_.size()) return "'" + text_ + "'";
        return "'" + text_.substr(node.begin, node.end - node.begin) + "'";
    }
    [[noreturn]] void overflow(const Node& node) const {
        throw ExprError("integer overflow in " + where(node));
    }

    std::int64_t unary(const Node& node) const {
        const std::int64_t operand = eval(*node.operands[0]);
        if (node.op == Op::Not) return operand == 0 ? 1 : 0;
        if (operand == std::numeric_limits<std::int64_t>::min()) overflow(node);
        return -operand;
    }

    std::int64_t binary(const Node& node) const {
        const std::int64_t left = eval(*node.operands[0]);
        // && and || short-circuit as in C, so "b != 0 && a / b > 1" is safe.
        if (node.op == Op::And) return left != 0 && eval(*node.operands[1]) != 0 ? 1 : 0;
        if (node.op == Op::Or) return left != 0 || eval(*node.operands[1]) != 0 ? 1 : 0;
        const std::int64_t right = eval(*node.operands[1]);
        std::int64_t result = 0;
        switch (node.op) {
            case Op::Add:
                if (__builtin_add_overflow(left, right, &result)) overflow(node);
                return result;
            case Op::Subtract:
                if (__builtin_sub_overflow(left, right, &result)) overflow(node);
                return result;
            case Op::Multiply:
                if (__builtin_mul_overflow(left, right, &result)) overflow(node);
                return result;
            case Op::Divide:
                return divide(node, left, right);
            case Op::Modulo:
                if (right == 0) throw ExprError("modulo by zero in " + where(node));
                if (right == -1) return 0;  // INT64_MIN % -1 traps in hardware; the result is 0
                return left % right;
            case Op::Less:
                return left < right ? 1 : 0;
            case Op::LessEqual:
                return left <= right ? 1 : 0;
            case Op::Greater:
                return left > right ? 1 : 0;
            case Op::GreaterEqual:
                return left >= right ? 1 : 0;
            case Op::Equal:
                return left == right ? 1 : 0;
            case Op::NotEqual:
                return left != right ? 1 : 0;
            default:
                break;
        }
        throw ExprError("corrupt expression tree");  // unreachable: the parser makes no others
    }

    std::int64_t divide(const Node& node, std::int64_t left, std::int64_t right) const {
        if (right == 0) throw ExprError("division by zero in " + where(node));
        if (left == std::numeric_limits<std::int64_t>::min() && right == -1) overflow(node);
        return left / right;
    }

    std::int64_t call(const Node& node) const {
        const std::int64_t a = eval(*node.operands[0]);
        const std::int64_t b = eval(*node.operands[1]);
        switch (node.op) {
            case Op::Min:
                return std::min(a, b);
            case Op::Max:
                return std::max(a, b);
            case Op::CeilDiv: {
                // Exactly ::optiml::rt::ceil_div, (a + b - 1) / b, so that the host and the
                // generated launcher agree on every input.
                if (b == 0) throw ExprError("division by zero in " + where(node));
                std::int64_t sum = 0;
                if (__builtin_add_overflow(a, b - 1, &sum)) overflow(node);
                return divide(node, sum, b);
            }
            default:
                break;
        }
        throw ExprError("corrupt expression tree");  // unreachable: the parser makes no others
    }

    const Env& env_;
    const std::string& text_;
};

const char* spelling(Op op) {
    switch (op) {
        case Op::Negate:
            return "-";
        case Op::Not:
            return "!";
        case Op::Add:
            return "+";
        case Op::Subtract:
            return "-";
        case Op::Multiply:
            return "*";
        case Op::Divide:
            return "/";
        case Op::Modulo:
            return "%";
        case Op::Less:
            return "<";
        case Op::LessEqual:
            return "<=";
        case Op::Greater:
            return ">";
        case Op::GreaterEqual:
            return ">=";
        case Op::Equal:
            return "==";
        case Op::NotEqual:
            return "!=";
        case Op::And:
            return "&&";
        case Op::Or:
            return "||";
        case Op::CeilDiv:
            return "::optiml::rt::ceil_div";
        case Op::Min:
            return "::optiml::rt::min";
        case Op::Max:
            return "::optiml::rt::max";
    }
    return "?";
}

std::string literal_cpp(std::int64_t value) {
    if (value == std::numeric_limits<std::int64_t>::min()) return "(-9223372036854775807LL - 1LL)";
    if (value < 0) return "(-" + std::to_string(-value) + "LL)";
    return std::to_string(value) + "LL";
}

// A resolved name is pasted as is when it is a single token (identifier, literal, qualified
// name); anything else is parenthesised so that it binds as one operand.
std::string operand_cpp(std::string text) {
    const bool single_token = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':';
    });
    return single_token ? text : "(" + text + ")";
}

// Appends rather than `"(" + temporary`, which GCC 12's -Wrestrict misreads in Release builds.
std::string parenthesized(const std::string& inner) {
    std::string out;
    out.reserve(inner.size() + 2);
    out += '(';
    out += inner;
    out += ')';
    return out;
}

std::string to_cpp(const Node& node, const Resolver& resolve);

std::string call_cpp(const std::string& function, const Node& node, const Resolver& resolve) {
    return function + "(" + to_cpp(*node.operands[0], resolve) + ", " +
           to_cpp(*node.operands[1], resolve) + ")";
}

std::string to_cpp(const Node& node, const Resolver& resolve) {
    switch (node.kind) {
        case Node::Kind::Literal:
            return literal_cpp(node.value);
        case Node::Kind::Name: {
            std::optional<std::string> text = resolve(node.name);
            if (!text) throw ExprError("unknown name '" + node.name + "'");
            return operand_cpp(std::move(*text));
        }
        case Node::Kind::Unary:
            return parenthesized(std::string(spelling(node.op)) +
                                 to_cpp(*node.operands[0], resolve));
        case Node::Kind::Binary:
            // A divisor can come from the caller's arguments at run time: `/` and `%` print as
            // ::optiml::rt::div/mod, which give 0 for a zero divisor (the launch then fails with
            // cudaErrorInvalidConfiguration) instead of trapping in the user's program.
            if (node.op == Op::Divide || node.op == Op::Modulo) {
                return call_cpp(node.op == Op::Divide ? "::optiml::rt::div" : "::optiml::rt::mod",
                                node, resolve);
            }
            return parenthesized(to_cpp(*node.operands[0], resolve) + " " + spelling(node.op) +
                                 " " + to_cpp(*node.operands[1], resolve));
        case Node::Kind::Call:
            return call_cpp(spelling(node.op), node, resolve);
    }
    throw ExprError("corrupt expression tree");  // unreachable: every kind is handled above
}

void collect_names(const Node& node, std::set<std::string>& names) {
    if (node.kind == Node::Kind::Name) names.insert(node.name);
    for (const NodePtr& operand : node.operands) collect_names(*operand, names);
}

NodePtr literal_node(std::int64_t value) {
    Node node;
    node.kind = Node::Kind::Literal;
    node.value = value;
    return std::make_shared<const Node>(std::move(node));
}

}  // namespace

Expr::Expr() : root_(literal_node(0)), text_("0") {}

Expr Expr::parse(std::string_view text) {
    Expr expr;
    expr.root_ = parse_tree(text);
    expr.text_ = std::string(text);
    return expr;
}

Expr Expr::literal(std::int64_t value) {
    Expr expr;
    expr.root_ = literal_node(value);
    expr.text_ = std::to_string(value);
    return expr;
}

std::int64_t Expr::eval(const Env& env) const {
    return Evaluator(env, text_).eval(*root_);
}

std::string Expr::to_cpp(const Resolver& resolve) const {
    return ::optiml::expr::to_cpp(*root_, resolve);
}

std::vector<std::string> Expr::names() const {
    std::set<std::string> names;
    collect_names(*root_, names);
    return {names.begin(), names.end()};
}

}  // namespace optiml::expr
