// Data turned into C++ text must stay inert: comments cannot swallow code, literals are exact.
#include <gtest/gtest.h>

#include "driver/codegen/detail/cpp_text.h"

namespace optiml::codegen {
namespace {

TEST(Comment, DropsTrailingBackslashesThatWouldSpliceTheNextLine) {
    EXPECT_EQ(comment("path C:\\dir\\"), "// path C:\\dir\n");
}

TEST(Comment, TurnsEachSourceLineIntoACommentLineAndControlCharactersIntoSpaces) {
    EXPECT_EQ(comment("one\ntwo\tthree\r"), "// one\n// two three\n");
    EXPECT_EQ(comment(""), "//\n");
}

TEST(Comment, WrapsLongLinesAtWordsWithinOneHundredColumns) {
    const std::string words(30, 'w');
    const std::string text = words + " " + words + " " + words + " " + words;
    const std::string out = comment(text, "  ");
    EXPECT_EQ(out, "//   " + words + " " + words + " " + words + "\n//     " + words + "\n");
}

TEST(StringLiteral, EscapesQuotesBackslashesAndNonPrintableBytes) {
    EXPECT_EQ(string_literal("_Z5saxpyifPKfPf"), "\"_Z5saxpyifPKfPf\"");
    EXPECT_EQ(string_literal("a\"b\\c"), "\"a\\\"b\\\\c\"");
    // Octal escapes stop after three digits, so a following digit is not swallowed.
    EXPECT_EQ(string_literal(std::string("\n1\x00"
                                         "2",
                                         4)),
              "\"\\0121\\0002\"");
    EXPECT_EQ(string_literal("?"
                             "?/"),
              "\"\\077\\077/\"");
}

TEST(HexBytes, SixteenPerLineWithOptionalTerminator) {
    EXPECT_EQ(hex_bytes("AB", false, "  "), "  0x41, 0x42,\n");
    EXPECT_EQ(hex_bytes("AB", true, ""), "0x41, 0x42, 0x00,\n");
    EXPECT_EQ(hex_bytes("", false, ""), "");
    const std::string seventeen(17, '\xff');
    EXPECT_EQ(hex_bytes(seventeen, false, ""),
              "0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, "
              "0xff, 0xff,\n0xff,\n");
}

TEST(LongLongLiteral, NegativeValuesAreParenthesised) {
    EXPECT_EQ(long_long_literal(512), "512LL");
    EXPECT_EQ(long_long_literal(-3), "(-3LL)");
    EXPECT_EQ(long_long_literal(INT64_MIN), "(-9223372036854775807LL - 1LL)");
}

TEST(IdentifierFrom, ReplacesEverythingButIdentifierCharacters) {
    EXPECT_EQ(identifier_from("ns::table-2"), "ns__table_2");
}

}  // namespace
}  // namespace optiml::codegen
