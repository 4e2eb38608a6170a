// The expression language: evaluation (C semantics), syntax errors with columns, evaluation
// errors, printing as C++, and the names an expression uses.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "driver/spec/expr.h"

namespace optiml::expr {
namespace {

const Env kEnv = {
    {"n", 1000}, {"block_size_x", 256}, {"items_per_thread", 2}, {"zero", 0}, {"neg", -7}};

struct Good {
    const char* text;
    std::int64_t value;
};

class ExprEvaluates : public ::testing::TestWithParam<Good> {};

TEST_P(ExprEvaluates, ToTheValueCWouldCompute) {
    const Good& good = GetParam();
    EXPECT_EQ(Expr::parse(good.text).eval(kEnv), good.value) << good.text;
}

INSTANTIATE_TEST_SUITE_P(
    Table, ExprEvaluates,
    ::testing::Values(
        Good{"42", 42}, Good{"  7 ", 7}, Good{"1 + 2 * 3", 7}, Good{"(1 + 2) * 3", 9},
        Good{"2 - 3 - 4", -5}, Good{"100 / 10 / 5", 2}, Good{"7 / 2", 3}, Good{"-7 / 2", -3},
        Good{"-7 % 3", -1}, Good{"7 % -3", 1}, Good{"neg % 4", -3}, Good{"- -3", 3}, Good{"--3", 3},
        Good{"-n + 1", -999}, Good{"!0", 1}, Good{"!5", 0}, Good{"!!n", 1}, Good{"1 < 2", 1},
        Good{"2 <= 2", 1}, Good{"3 > 4", 0}, Good{"4 >= 5", 0}, Good{"n == 1000", 1},
        Good{"n != 1000", 0}, Good{"1 < 2 == 1", 1}, Good{"3 > 2 > 1", 0}, Good{"1 + 1 < 3", 1},
        Good{"1 || 0 && 0", 1}, Good{"(1 || 0) && 0", 0}, Good{"2 && 3", 1}, Good{"0 || -4", 1},
        Good{"zero != 0 && n / zero > 1", 0}, Good{"zero == 0 || n / zero > 1", 1},
        Good{"ceil_div(10, 3)", 4}, Good{"ceil_div(9, 3)", 3}, Good{"ceil_div(-7, 2)", -3},
        Good{"min(3, -2)", -2}, Good{"max(3, -2)", 3}, Good{"min(max(n, 5), 2 * 300)", 600},
        Good{"ceil_div(n, block_size_x * items_per_thread)", 2},
        Good{"block_size_x*items_per_thread<=8192", 1},
        Good{"9223372036854775807", std::numeric_limits<std::int64_t>::max()},
        Good{"-9223372036854775807 - 1", std::numeric_limits<std::int64_t>::min()}));

struct Bad {
    const char* text;
    const char* message;
};

class ExprRejects : public ::testing::TestWithParam<Bad> {};

TEST_P(ExprRejects, WithTheColumnAndWhatWasExpected) {
    const Bad& bad = GetParam();
    try {
        (void)Expr::parse(bad.text);
        FAIL() << "parsed: " << bad.text;
    } catch (const ExprError& error) {
        EXPECT_EQ(std::string(error.what()), bad.message) << bad.text;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Table, ExprRejects,
    ::testing::Values(
        Bad{"", "empty expression; expected a number, a name, a function call or '('"},
        Bad{"   ", "empty expression; expected a number, a name, a function call or '('"},
        Bad{"1 +",
            "unexpected end of expression at column 4; expected a number, a name, a function call "
            "or '('"},
        Bad{"(n + 1))",
            "unexpected ')' at column 8; expected an operator or the end of the expression"},
        Bad{"(n + )",
            "unexpected ')' at column 6; expected a number, a name, a function call or '('"},
        Bad{"(n + 1",
            "unexpected end of expression at column 7; expected ')' to close the '(' at column 1"},
        Bad{"2 3",
            "unexpected number '3' at column 3; expected an operator or the end of the expression"},
        Bad{"n m",
            "unexpected name 'm' at column 3; expected an operator or the end of the expression"},
        Bad{"* 2", "unexpected '*' at column 1; expected a number, a name, a function call or '('"},
        Bad{"a = b", "unexpected '=' at column 3; expected '=='"},
        Bad{"a & b", "unexpected '&' at column 3; expected '&&'"},
        Bad{"a | b", "unexpected '|' at column 3; expected '||'"},
        Bad{"n $ 2",
            "unexpected character '$' at column 3; expected a number, a name, a function call or "
            "'(' or an operator"},
        Bad{"1.5", "bad number '1.5' at column 1; expected an integer (decimal digits only)"},
        Bad{"12ab", "bad number '12ab' at column 1; expected an integer (decimal digits only)"},
        Bad{"99999999999999999999",
            "number '99999999999999999999' at column 1 is too large; expected at most "
            "9223372036854775807"},
        Bad{"foo(1, 2)", "unknown function 'foo' at column 1; expected ceil_div, min or max"},
        Bad{"min + 1", "'min' at column 1 is a function; expected '(' after it: min(a, b)"},
        Bad{"min(1)", "unexpected ')' at column 6; expected ',' and a second argument: min(a, b)"},
        Bad{"max(1, 2, 3)", "max takes 2 arguments, got a third at column 9; expected max(a, b)"},
        Bad{"ceil_div(n, 2",
            "unexpected end of expression at column 14; expected ')' to close the '(' at column "
            "9"}));

TEST(Expr, RejectsTooDeepNestingInsteadOfExhaustingTheStack) {
    const std::string parentheses = std::string(10000, '(') + "1" + std::string(10000, ')');
    const std::string negations = std::string(10000, '-') + "1";
    std::string chain = "1";
    for (int i = 0; i < 10000; ++i) chain += " + 1";
    for (const std::string& text : {parentheses, negations, chain}) {
        try {
            (void)Expr::parse(text);
            FAIL() << "parsed a 10000-level expression";
        } catch (const ExprError& error) {
            EXPECT_NE(std::string(error.what()).find("too deeply nested or too long"),
                      std::string::npos)
                << error.what();
        }
    }
    EXPECT_EQ(Expr::parse(std::string(100, '(') + "1" + std::string(100, ')')).eval({}), 1);
}

struct EvalFailure {
    const char* text;
    const char* message;
};

class ExprEvalFails : public ::testing::TestWithParam<EvalFailure> {};

TEST_P(ExprEvalFails, WithAMessageNamingTheCause) {
    const EvalFailure& bad = GetParam();
    const Expr expression = Expr::parse(bad.text);
    try {
        (void)expression.eval(kEnv);
        FAIL() << "evaluated: " << bad.text;
    } catch (const ExprError& error) {
        EXPECT_EQ(std::string(error.what()), bad.message) << bad.text;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Table, ExprEvalFails,
    ::testing::Values(
        EvalFailure{"foo + 1", "unknown name 'foo'"},
        EvalFailure{"n / zero", "division by zero in 'n / zero'"},
        EvalFailure{"1 + n % (n - n)", "modulo by zero in 'n % (n - n)'"},
        EvalFailure{"ceil_div(n, zero)", "division by zero in 'ceil_div(n, zero)'"},
        EvalFailure{"9223372036854775807 + 1", "integer overflow in '9223372036854775807 + 1'"},
        EvalFailure{"n * 9223372036854775807", "integer overflow in 'n * 9223372036854775807'"},
        EvalFailure{"-9223372036854775807 - 2", "integer overflow in '-9223372036854775807 - 2'"},
        EvalFailure{"(-9223372036854775807 - 1) / -1",
                    "integer overflow in '(-9223372036854775807 - 1) / -1'"}));

std::optional<std::string> resolve(std::string_view name) {
    if (name == "n") return "static_cast<long long>(n)";
    if (name == "block_size_x") return "256LL";
    if (name == "items_per_thread") return "2LL";
    if (name == "m") return "m";
    return std::nullopt;
}

// Division and modulo print as ::optiml::rt::div/mod, which do not trap on a zero divisor that
// reaches the generated launcher through the caller's arguments.
TEST(Expr, PrintsFullyParenthesisedCpp) {
    const std::vector<std::pair<std::string, std::string>> table = {
        {"ceil_div(n, block_size_x * items_per_thread)",
         "::optiml::rt::ceil_div((static_cast<long long>(n)), (256LL * 2LL))"},
        {"1 + 2 * 3", "(1LL + (2LL * 3LL))"},
        {"(1 + 2) * 3", "((1LL + 2LL) * 3LL)"},
        {"-m", "(-m)"},
        {"!(m < 4) || m >= 2 && m != 3", "((!(m < 4LL)) || ((m >= 2LL) && (m != 3LL)))"},
        {"min(m, max(m % 2, 0)) / 1",
         "::optiml::rt::div(::optiml::rt::min(m, ::optiml::rt::max(::optiml::rt::mod(m, 2LL), "
         "0LL)), "
         "1LL)"},
        {"n / block_size_x - 1", "(::optiml::rt::div((static_cast<long long>(n)), 256LL) - 1LL)"},
        {"m <= 1 == (m > 0)", "((m <= 1LL) == (m > 0LL))"},
    };
    for (const auto& [text, cpp] : table) EXPECT_EQ(Expr::parse(text).to_cpp(resolve), cpp) << text;
    EXPECT_EQ(Expr().to_cpp(resolve), "0LL");
    EXPECT_EQ(Expr::literal(256).to_cpp(resolve), "256LL");
    EXPECT_EQ(Expr::literal(-5).to_cpp(resolve), "(-5LL)");
    EXPECT_EQ(Expr::literal(std::numeric_limits<std::int64_t>::min()).to_cpp(resolve),
              "(-9223372036854775807LL - 1LL)");
}

TEST(Expr, ToCppRejectsANameTheResolverDoesNotKnow) {
    try {
        (void)Expr::parse("m + foo").to_cpp(resolve);
        FAIL() << "printed an unknown name";
    } catch (const ExprError& error) {
        EXPECT_EQ(std::string(error.what()), "unknown name 'foo'");
    }
}

TEST(Expr, ListsTheNamesItUsesSortedAndUniqueWithoutFunctions) {
    EXPECT_EQ(Expr::parse("ceil_div(n, block_size_x * n) + min(a, 1) - max(n, zz)").names(),
              (std::vector<std::string>{"a", "block_size_x", "n", "zz"}));
    EXPECT_TRUE(Expr::parse("ceil_div(4, 2)").names().empty());
    EXPECT_TRUE(Expr::literal(3).names().empty());
}

TEST(Expr, KeepsItsTextAndDefaultsToZero) {
    EXPECT_EQ(Expr::parse("ceil_div(n,  2)").text(), "ceil_div(n,  2)");
    EXPECT_EQ(Expr::literal(42).text(), "42");
    EXPECT_EQ(Expr::literal(-3).text(), "-3");
    EXPECT_EQ(Expr().text(), "0");
    EXPECT_EQ(Expr().eval({}), 0);
    EXPECT_EQ(Expr::literal(-3).eval({}), -3);
}

TEST(Expr, CopiesShareTheTreeAndEvaluateAlike) {
    const Expr original = Expr::parse("n * 2");
    const Expr copy = original;  // NOLINT(performance-unnecessary-copy-initialization)
    EXPECT_EQ(copy.eval(kEnv), 2000);
    EXPECT_EQ(copy.text(), original.text());
}

}  // namespace
}  // namespace optiml::expr
