// docs/spec.md's complete example must be a valid spec that means what the fixture means, so the
// documentation cannot drift from the parser.
#include <gtest/gtest.h>

#include <string>

#include "driver/spec/spec.h"
#include "tests/unit/spec/spec_test_support.h"

namespace optiml::spec {
namespace {

// The first ```json block after the "## Complete example" heading.
std::string complete_example() {
    const std::string docs = testing::read_text(std::filesystem::path(OPTIML_DOCS_DIR) / "spec.md");
    const std::size_t heading = docs.find("\n## Complete example");
    if (heading == std::string::npos) return "";
    const std::string fence = "```json\n";
    const std::size_t begin = docs.find(fence, heading);
    if (begin == std::string::npos) return "";
    const std::size_t end = docs.find("\n```", begin + fence.size());
    if (end == std::string::npos) return "";
    return docs.substr(begin + fence.size(), end - begin - fence.size());
}

TEST(DocsExample, IsAValidSpecEqualToTheFixture) {
    const std::string example = complete_example();
    ASSERT_FALSE(example.empty())
        << "docs/spec.md lacks a ```json block under '## Complete example'";
    const nlohmann::json json = nlohmann::json::parse(example, nullptr, false, true);
    ASSERT_FALSE(json.is_discarded()) << "the example is not valid JSON";
    // Parsed as if it sat beside the fixture's kernel source and include folder.
    const Spec spec = parse_spec(json, testing::fixture_path());
    EXPECT_EQ(spec.normalized, load_spec(testing::fixture_path()).normalized);
}

}  // namespace
}  // namespace optiml::spec
