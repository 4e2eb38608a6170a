// Tokenizer and recursive-descent parser for spec expressions, with C's precedence:
//   || < && < (== !=) < (< <= > >=) < (+ -) < (* / %) < unary (- !) < primary.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <iterator>
#include <string>
#include <utility>

#include "driver/spec/detail/expr_node.h"
#include "driver/spec/expr.h"

namespace optiml::expr {
namespace {

constexpr const char* kOperandExpected = "a number, a name, a function call or '('";

struct Token {
    enum class Kind { Number, Name, Punct, End };
    Kind kind = Kind::End;
    std::string text;
    std::size_t begin = 0;  // offset in the source
};

std::string describe(const Token& token) {
    switch (token.kind) {
        case Token::Kind::Number:
            return "number '" + token.text + "'";
        case Token::Kind::Name:
            return "name '" + token.text + "'";
        case Token::Kind::Punct:
            return "'" + token.text + "'";
        case Token::Kind::End:
            break;
    }
    return "end of expression";
}

std::string column(std::size_t offset) {
    return "column " + std::to_string(offset + 1);
}

[[noreturn]] void fail(const std::string& problem, const std::string& expected) {
    throw ExprError(problem + "; expected " + expected);
}

[[noreturn]] void too_complex(std::size_t offset) {
    fail("expression too deeply nested or too long at " + column(offset),
         "at most " + std::to_string(kMaxDepth) + " nested operations");
}

bool is_name_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

std::vector<Token> tokenize(std::string_view text) {
    std::vector<Token> tokens;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        Token token;
        token.begin = i;
        if (is_digit(c)) {
            token.kind = Token::Kind::Number;
            // "12ab" and "1.5" are one bad number each, not a number followed by something else.
            while (i < text.size() && (is_name_char(text[i]) || text[i] == '.')) ++i;
        } else if (is_name_start(c)) {
            token.kind = Token::Kind::Name;
            while (i < text.size() && is_name_char(text[i])) ++i;
        } else {
            token.kind = Token::Kind::Punct;
            const std::string_view two = text.substr(i, 2);
            if (two == "<=" || two == ">=" || two == "==" || two == "!=" || two == "&&" ||
                two == "||") {
                i += 2;
            } else if (std::string_view("+-*/%(),<>!").find(c) != std::string_view::npos) {
                ++i;
            } else if (c == '&' || c == '|' || c == '=') {
                const std::string doubled(2, c);  // a named string: see expr.cpp's parenthesized()
                fail("unexpected '" + std::string(1, c) + "' at " + column(i), "'" + doubled + "'");
            } else {
                fail("unexpected character '" + std::string(1, c) + "' at " + column(i),
                     std::string(kOperandExpected) + " or an operator");
            }
        }
        token.text = std::string(text.substr(token.begin, i - token.begin));
        tokens.push_back(std::move(token));
    }
    tokens.push_back(Token{Token::Kind::End, "", text.size()});
    return tokens;
}

class Parser {
  public:
    explicit Parser(std::string_view text) : tokens_(tokenize(text)) {}

    NodePtr parse() {
        if (tokens_.front().kind == Token::Kind::End) fail("empty expression", kOperandExpected);
        NodePtr root = parse_or();
        if (peek().kind != Token::Kind::End) {
            fail("unexpected " + describe(peek()) + " at " + column(peek().begin),
                 "an operator or the end of the expression");
        }
        return root;
    }

  private:
    const Token& peek() const { return tokens_[position_]; }
    const Token& take() { return tokens_[position_++]; }
    bool at(std::string_view punct) const {
        return peek().kind == Token::Kind::Punct && peek().text == punct;
    }
    // The offset just past the last token taken: where the current node's text ends.
    std::size_t end_of_taken() const {
        const Token& last = tokens_[position_ - 1];
        return last.begin + last.text.size();
    }

    static NodePtr make(Node node) {
        node.depth = 1;
        for (const NodePtr& operand : node.operands)
            node.depth = std::max(node.depth, operand->depth + 1);
        if (node.depth > kMaxDepth) {
            too_complex(node.begin);
        }
        return std::make_shared<const Node>(std::move(node));
    }

    NodePtr binary(Op op, std::size_t begin, NodePtr left, NodePtr right) const {
        Node node;
        node.kind = Node::Kind::Binary;
        node.op = op;
        node.begin = begin;
        node.end = end_of_taken();
        node.operands = {std::move(left), std::move(right)};
        return make(std::move(node));
    }

    // One precedence level of left-associative binary operators.
    template <typename Next>
    NodePtr level(std::initializer_list<std::pair<std::string_view, Op>> operators, Next next) {
        const std::size_t begin = peek().begin;  // before any '(' that opens the left operand
        NodePtr left = (this->*next)();
        for (;;) {
            const auto match = std::find_if(operators.begin(), operators.end(),
                                            [&](const auto& entry) { return at(entry.first); });
            if (match == operators.end()) return left;
            take();
            NodePtr right = (this->*next)();
            left = binary(match->second, begin, std::move(left), std::move(right));
        }
    }

    NodePtr parse_or() { return level({{"||", Op::Or}}, &Parser::parse_and); }
    NodePtr parse_and() { return level({{"&&", Op::And}}, &Parser::parse_equality); }
    NodePtr parse_equality() {
        return level({{"==", Op::Equal}, {"!=", Op::NotEqual}}, &Parser::parse_relational);
    }
    NodePtr parse_relational() {
        return level(
            {{"<", Op::Less}, {"<=", Op::LessEqual}, {">", Op::Greater}, {">=", Op::GreaterEqual}},
            &Parser::parse_additive);
    }
    NodePtr parse_additive() {
        return level({{"+", Op::Add}, {"-", Op::Subtract}}, &Parser::parse_multiplicative);
    }
    NodePtr parse_multiplicative() {
        return level({{"*", Op::Multiply}, {"/", Op::Divide}, {"%", Op::Modulo}},
                     &Parser::parse_unary);
    }

    NodePtr parse_unary() {
        if (at("-") || at("!")) {
            const Token& sign = take();
            if (++unary_nesting_ > kMaxDepth) {
                too_complex(sign.begin);
            }
            NodePtr operand = parse_unary();
            --unary_nesting_;
            Node node;
            node.kind = Node::Kind::Unary;
            node.op = sign.text == "-" ? Op::Negate : Op::Not;
            node.begin = sign.begin;
            node.end = end_of_taken();
            node.operands = {std::move(operand)};
            return make(std::move(node));
        }
        return parse_primary();
    }

    NodePtr parse_primary() {
        const Token& token = take();
        switch (token.kind) {
            case Token::Kind::Number:
                return number(token);
            case Token::Kind::Name:
                return name_or_call(token);
            case Token::Kind::Punct:
                if (token.text == "(") return parenthesised(token);
                break;
            case Token::Kind::End:
                break;
        }
        fail("unexpected " + describe(token) + " at " + column(token.begin), kOperandExpected);
    }

    static NodePtr number(const Token& token) {
        Node node;
        node.kind = Node::Kind::Literal;
        node.begin = token.begin;
        node.end = token.begin + token.text.size();
        const char* first = token.text.data();
        const char* last = first + token.text.size();
        const auto [stop, error] = std::from_chars(first, last, node.value);
        if (error == std::errc::result_out_of_range) {
            fail("number '" + token.text + "' at " + column(token.begin) + " is too large",
                 "at most 9223372036854775807");
        }
        if (error != std::errc() || stop != last) {
            fail("bad number '" + token.text + "' at " + column(token.begin),
                 "an integer (decimal digits only)");
        }
        return make(std::move(node));
    }

    NodePtr parenthesised(const Token& open) {
        if (++paren_nesting_ > kMaxDepth) {
            too_complex(open.begin);
        }
        NodePtr inner = parse_or();
        --paren_nesting_;
        expect_closing(open);
        return inner;
    }

    void expect_closing(const Token& open) {
        if (!at(")")) {
            fail("unexpected " + describe(peek()) + " at " + column(peek().begin),
                 "')' to close the '(' at " + column(open.begin));
        }
        take();
    }

    NodePtr name_or_call(const Token& token) {
        static const std::pair<std::string_view, Op> functions[] = {
            {"ceil_div", Op::CeilDiv}, {"min", Op::Min}, {"max", Op::Max}};
        const auto function = std::find_if(std::begin(functions), std::end(functions),
                                           [&](const auto& f) { return f.first == token.text; });
        if (!at("(")) {
            if (function != std::end(functions)) {
                fail("'" + token.text + "' at " + column(token.begin) + " is a function",
                     "'(' after it: " + token.text + "(a, b)");
            }
            Node node;
            node.kind = Node::Kind::Name;
            node.name = token.text;
            node.begin = token.begin;
            node.end = token.begin + token.text.size();
            return make(std::move(node));
        }
        if (function == std::end(functions)) {
            fail("unknown function '" + token.text + "' at " + column(token.begin),
                 "ceil_div, min or max");
        }
        const Token& open = take();
        if (++paren_nesting_ > kMaxDepth) {
            too_complex(open.begin);
        }
        Node node;
        node.kind = Node::Kind::Call;
        node.op = function->second;
        node.begin = token.begin;
        node.operands.push_back(parse_or());
        if (!at(",")) {
            fail("unexpected " + describe(peek()) + " at " + column(peek().begin),
                 "',' and a second argument: " + token.text + "(a, b)");
        }
        take();
        node.operands.push_back(parse_or());
        if (at(",")) {
            fail(token.text + " takes 2 arguments, got a third at " + column(peek().begin),
                 token.text + "(a, b)");
        }
        --paren_nesting_;
        expect_closing(open);
        node.end = end_of_taken();
        return make(std::move(node));
    }

    std::vector<Token> tokens_;
    std::size_t position_ = 0;
    int unary_nesting_ = 0;
    int paren_nesting_ = 0;
};

}  // namespace

NodePtr parse_tree(std::string_view text) {
    return Parser(text).parse();
}

}  // namespace optiml::expr
