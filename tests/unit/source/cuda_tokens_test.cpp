#include "driver/source/cuda_tokens.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace optiml::source {
namespace {

std::string concatenated(std::string_view source, const std::vector<source::Token>& tokens) {
    std::string text;
    for (const source::Token& token : tokens) text += source::token_text(source, token);
    return text;
}

// (kind, text) of every token that is not whitespace.
std::vector<std::pair<source::TokenKind, std::string>> significant(std::string_view source) {
    std::vector<std::pair<source::TokenKind, std::string>> result;
    for (const source::Token& token : source::lex(source)) {
        if (token.kind != source::TokenKind::Whitespace) {
            result.emplace_back(token.kind, std::string(source::token_text(source, token)));
        }
    }
    return result;
}

using K = source::TokenKind;

TEST(CudaTokens, SplitsCommentsLiteralsAndPunctuators) {
    const std::string source = "a<<=b->c::d++ && e...; // end\n/* x\ny */ s = \"q\\\"//\" + 'c';";
    const auto tokens = significant(source);
    const std::vector<std::pair<source::TokenKind, std::string>> expected = {
        {K::Identifier, "a"},   {K::Punctuator, "<<="},     {K::Identifier, "b"},
        {K::Punctuator, "->"},  {K::Identifier, "c"},       {K::Punctuator, "::"},
        {K::Identifier, "d"},   {K::Punctuator, "++"},      {K::Punctuator, "&&"},
        {K::Identifier, "e"},   {K::Punctuator, "..."},     {K::Punctuator, ";"},
        {K::Comment, "// end"}, {K::Comment, "/* x\ny */"}, {K::Identifier, "s"},
        {K::Punctuator, "="},   {K::String, "\"q\\\"//\""}, {K::Punctuator, "+"},
        {K::Char, "'c'"},       {K::Punctuator, ";"}};
    EXPECT_EQ(tokens, expected);
}

TEST(CudaTokens, ReadsNumbersWhole) {
    const auto tokens = significant("1.0f 0x1F 1e-3 1'000 .5 2.5E+10L 7u");
    const std::vector<std::pair<source::TokenKind, std::string>> expected = {
        {K::Number, "1.0f"}, {K::Number, "0x1F"},     {K::Number, "1e-3"}, {K::Number, "1'000"},
        {K::Number, ".5"},   {K::Number, "2.5E+10L"}, {K::Number, "7u"}};
    EXPECT_EQ(tokens, expected);
}

TEST(CudaTokens, ReadsRawAndPrefixedStrings) {
    const auto tokens = significant("R\"x(a )\" \" b)x\" u8\"s\" L'w' x");
    const std::vector<std::pair<source::TokenKind, std::string>> expected = {
        {K::String, "R\"x(a )\" \" b)x\""},
        {K::String, "u8\"s\""},
        {K::Char, "L'w'"},
        {K::Identifier, "x"}};
    EXPECT_EQ(tokens, expected);
}

TEST(CudaTokens, ADirectiveIsOneTokenWithItsContinuedLines) {
    const std::string source =
        "  #define TWICE(x) \\\r\n    ((x) * 2) /* c\n */\nint a = b # c;\n#pragma unroll 4\r\nfor";
    const auto tokens = significant(source);
    ASSERT_GE(tokens.size(), 2u);
    EXPECT_EQ(tokens[0],
              std::make_pair(K::Preprocessor,
                             std::string("#define TWICE(x) \\\r\n    ((x) * 2) /* c\n */")));
    EXPECT_EQ(tokens[1], std::make_pair(K::Identifier, std::string("int")));
    // A '#' that is not the first non-blank of its line is a punctuator.
    EXPECT_EQ(tokens[5], std::make_pair(K::Punctuator, std::string("#")));
    EXPECT_EQ(tokens[8], std::make_pair(K::Preprocessor, std::string("#pragma unroll 4")));
    EXPECT_EQ(tokens[9], std::make_pair(K::Identifier, std::string("for")));
}

TEST(CudaTokens, CountsLinesFromOne) {
    const std::string source = "a\n/* b\n c */ d\r\n\"e\"";
    const std::vector<source::Token> tokens = source::code_tokens(source);
    ASSERT_EQ(tokens.size(), 3u);
    EXPECT_EQ(tokens[0].line, 1);
    EXPECT_EQ(tokens[1].line, 3);
    EXPECT_EQ(tokens[2].line, 4);
}

TEST(CudaTokens, UnterminatedLiteralsAndCommentsStillRoundTrip) {
    for (const std::string source : {"\"open\nnext", "/* open", "'", "R\"x(never", "a\\", "#"}) {
        EXPECT_EQ(concatenated(source, source::lex(source)), source) << source;
    }
}

TEST(CudaTokens, MatchesBracketsOfOneKind) {
    const std::string source = "f(a[(1)], g<h<int>>(2))";
    const std::vector<source::Token> tokens = source::code_tokens(source);
    EXPECT_EQ(source::matching_bracket(tokens, source, 1), tokens.size() - 1);
    EXPECT_EQ(source::token_text(source, tokens[source::matching_bracket(tokens, source, 3)]), "]");
    // Both '<' of g<h<int>> close at the one ">>".
    EXPECT_EQ(source::matching_bracket(tokens, source, 10), 14u);
    EXPECT_EQ(source::matching_bracket(tokens, source, 12), 14u);
}

TEST(CudaTokens, RoundTripsEveryCudaFileOfTheRepository) {
    const std::filesystem::path root = OPTIML_SOURCE_DIR;
    int files = 0;
    for (const char* folder : {"examples", "tests", "bench"}) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder)) {
            const auto extension = entry.path().extension();
            if (extension != ".cu" && extension != ".cuh" && extension != ".h") continue;
            std::ifstream in(entry.path(), std::ios::binary);
            std::stringstream text;
            text << in.rdbuf();
            const std::string source = text.str();
            EXPECT_EQ(concatenated(source, source::lex(source)), source) << entry.path();
            ++files;
        }
    }
    EXPECT_GE(files, 20);
}

}  // namespace
}  // namespace optiml::source
