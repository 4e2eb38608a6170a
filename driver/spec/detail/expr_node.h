// The parsed form of an expression: shared by the parser (expr_parser.cpp) and the
// evaluator/printer (expr.cpp). Internal to driver/spec.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::expr {

enum class Op {
    Negate,
    Not,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Equal,
    NotEqual,
    And,
    Or,
    CeilDiv,
    Min,
    Max,
};

struct Node {
    enum class Kind { Literal, Name, Unary, Binary, Call };
    Kind kind = Kind::Literal;
    std::int64_t value = 0;  // Literal
    std::string name;        // Name
    Op op = Op::Add;         // Unary, Binary, Call
    std::vector<std::shared_ptr<const Node>> operands;
    // Where the node's text starts and ends in the source, for messages ("division by zero in
    // 'n / x'"); both 0 for nodes built without source text.
    std::size_t begin = 0;
    std::size_t end = 0;
    // Height of the tree below: bounded so that recursive evaluation cannot exhaust the stack.
    int depth = 1;
};

using NodePtr = std::shared_ptr<const Node>;

// The deepest tree the parser accepts.
inline constexpr int kMaxDepth = 256;

// Parses `text`; throws ExprError with the column of the problem.
NodePtr parse_tree(std::string_view text);

}  // namespace optiml::expr
