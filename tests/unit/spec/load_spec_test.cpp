// load_spec's file-level errors: missing or unreadable files, JSON syntax errors with line and
// column (never the JSON library's own message), duplicate keys, a document that is not an object.
#include <gtest/gtest.h>

#include <string>

#include "driver/spec/spec.h"
#include "tests/unit/spec/spec_test_support.h"

namespace optiml::spec {
namespace {

using testing::ScratchSpec;

std::string error_of(const std::filesystem::path& path) {
    try {
        (void)load_spec(path);
    } catch (const SpecError& error) {
        return error.what();
    }
    return "(no error)";
}

const char* const kValidJson =
    "expected valid JSON (look for a missing or extra comma, quote or bracket; // and /* */ "
    "comments are allowed)";

TEST(LoadSpec, MissingFile) {
    const ScratchSpec scratch("{}");
    const std::filesystem::path missing = scratch.directory() / "absent.json";
    EXPECT_EQ(
        error_of(missing),
        missing.string() + ": (file): the file does not exist; expected a readable JSON spec file");
}

TEST(LoadSpec, Directory) {
    const ScratchSpec scratch("{}");
    EXPECT_EQ(error_of(scratch.directory()),
              scratch.directory().string() +
                  ": (file): this is a directory; expected a readable JSON spec file");
}

struct SyntaxCase {
    const char* name;
    const char* text;
    const char* problem;
};

class SyntaxErrors : public ::testing::TestWithParam<SyntaxCase> {};

TEST_P(SyntaxErrors, NameLineAndColumnInOurOwnWords) {
    const ScratchSpec scratch(GetParam().text);
    const std::string message = error_of(scratch.path());
    EXPECT_EQ(message,
              scratch.path().string() + ": (file): " + GetParam().problem + "; " + kValidJson);
    EXPECT_EQ(message.find("json.exception"), std::string::npos);
    EXPECT_EQ(message.find("parse_error"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Table, SyntaxErrors,
    ::testing::Values(
        SyntaxCase{"TrailingComma", "{\n  \"name\": \"saxpy\",\n  }",
                   "JSON syntax error at line 3, column 3 (near '}')"},
        SyntaxCase{"MissingComma", "{\"name\": \"saxpy\"\n \"source\": \"saxpy.cu\"}",
                   "JSON syntax error at line 2, column 9 (near '\"')"},
        SyntaxCase{"Empty", "", "JSON syntax error at line 1, column 1 (near the end of the file)"},
        SyntaxCase{"Truncated", "{\"name\": ",
                   "JSON syntax error at line 1, column 10 (near the end of the file)"},
        SyntaxCase{"BadLiteral", "{\n  \"pointer\": tru}",
                   "JSON syntax error at line 2, column 17 (near '}')"},
        SyntaxCase{"LineBreakInString", "{\"name\": \"sax\npy\"}",
                   "JSON syntax error at line 1, column 14 (near a line break)"},
        SyntaxCase{"InvalidUtf8", "{\"name\": \"\xff\"}",
                   "JSON syntax error at line 1, column 11 (near byte 0xff)"},
        SyntaxCase{"TrailingGarbage", "{} x", "JSON syntax error at line 1, column 4 (near 'x')"}),
    [](const ::testing::TestParamInfo<SyntaxCase>& test_case) {
        return std::string(test_case.param.name);
    });

TEST(LoadSpec, DocumentThatIsNotAnObject) {
    const ScratchSpec scratch("[1, 2]");
    EXPECT_EQ(error_of(scratch.path()), scratch.path().string() +
                                            ": (file): the document is an array; expected a JSON "
                                            "object with the spec's fields (see docs/spec.md)");
}

TEST(LoadSpec, DuplicateKeysAreErrorsWithTheirPath) {
    std::string text = testing::read_text(testing::fixture_path());
    const auto duplicate = [&](const std::string& anchor, const std::string& insertion) {
        std::string changed = text;
        const std::size_t at = changed.find(anchor);
        EXPECT_NE(at, std::string::npos) << anchor;
        changed.insert(at + anchor.size(), insertion);
        const ScratchSpec scratch(changed);
        return error_of(scratch.path()).substr(scratch.path().string().size());
    };
    EXPECT_EQ(duplicate("\"name\": \"saxpy\",", " \"name\": \"other\","),
              ": name: this field appears more than once; expected each field once per object");
    EXPECT_EQ(duplicate("{\"name\": \"a\",", " \"name\": \"b\","),
              ": arguments[1].name: this field appears more than once; expected each field once "
              "per object");
    EXPECT_EQ(duplicate("\"stddev\": 1,", " \"stddev\": 2,"),
              ": arguments[3].fill.stddev: this field appears more than once; expected each field "
              "once per "
              "object");
    EXPECT_EQ(
        duplicate("\"values\": [1, 2, 4, 8],", " \"values\": [1],"),
        ": parameters[1].values: this field appears more than once; expected each field once per "
        "object");
}

TEST(LoadSpec, AcceptsCommentsAndAValidSpecFromAnyFolder) {
    const ScratchSpec scratch("/* block comment */\n" +
                              testing::read_text(testing::fixture_path()));
    const Spec spec = load_spec(scratch.path());
    EXPECT_EQ(spec.file, scratch.path());
    EXPECT_EQ(spec.source, scratch.directory() / "saxpy.cu");
}

}  // namespace
}  // namespace optiml::spec
