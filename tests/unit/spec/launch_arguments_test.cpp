// launch_arguments: scalars the launch geometry (and counts, constraints, extra sizes) may use but
// the kernel does not take. A spec without them keeps its normalized form, so its cache key.
#include <gtest/gtest.h>

#include <string>

#include "driver/spec/spec.h"
#include "tests/unit/spec/spec_test_support.h"

namespace optiml::spec {
namespace {

using testing::fixture_json;
using testing::fixture_path;

// The fixture with a launch argument `rows` that grid.y and the arrays' size use.
nlohmann::json with_rows() {
    nlohmann::json spec = fixture_json();
    spec["launch_arguments"] =
        nlohmann::json::parse(R"([{"name": "rows", "type": "int32", "value": 4}])");
    spec["launch"]["grid"][1] = "rows";
    spec["arguments"][2]["count"] = "n * rows";
    spec["arguments"][3]["count"] = "n * rows";
    spec["constraints"].push_back("rows <= 65535");
    return spec;
}

TEST(LaunchArguments, EnterTheEnvironmentButNotTheKernelsArguments) {
    const Spec spec = parse_spec(with_rows(), fixture_path());
    ASSERT_EQ(spec.launch_arguments.size(), 1u);
    EXPECT_EQ(spec.launch_arguments[0].name, "rows");
    EXPECT_EQ(spec.launch_arguments[0].type, ElementType::Int32);
    EXPECT_EQ(spec.launch_arguments[0].value, 4);
    EXPECT_EQ(spec.arguments.size(), 4u);  // the kernel's signature is unchanged
    const expr::Env env = spec.environment(spec.default_config());
    EXPECT_EQ(env.at("rows"), 4);
    EXPECT_EQ(spec.launch.grid[1].eval(env), 4);
    EXPECT_EQ(spec.arguments[2].count.eval(env), 33554432LL * 4);
}

TEST(LaunchArguments, ExtraSizesMayGiveThemOtherValues) {
    nlohmann::json spec = with_rows();
    spec["check"]["extra_sizes"] =
        nlohmann::json::parse(R"([{"rows": 3}, {"n": 1000, "rows": 1}])");
    const Spec parsed = parse_spec(spec, fixture_path());
    ASSERT_EQ(parsed.check.extra_sizes.size(), 2u);
    EXPECT_EQ(parsed.environment(parsed.default_config(), &parsed.check.extra_sizes[0]).at("rows"),
              3);
}

TEST(LaunchArguments, AppearInTheNormalizedSpecWhenPresent) {
    const nlohmann::json normalized = parse_spec(with_rows(), fixture_path()).normalized;
    EXPECT_EQ(normalized.at("launch_arguments"),
              nlohmann::json::parse(R"([{"name": "rows", "type": "int32", "value": 4}])"));
    // A change of the tuning value is a change of meaning: another key.
    nlohmann::json other = with_rows();
    other["launch_arguments"][0]["value"] = 8;
    EXPECT_NE(parse_spec(other, fixture_path()).normalized, normalized);
}

TEST(LaunchArguments, AbsentOrEmptyLeaveTheNormalizedSpecAsBefore) {
    const nlohmann::json reference = parse_spec(fixture_json(), fixture_path()).normalized;
    EXPECT_FALSE(reference.contains("launch_arguments"));
    nlohmann::json empty = fixture_json();
    empty["launch_arguments"] = nlohmann::json::array();
    EXPECT_EQ(parse_spec(empty, fixture_path()).normalized, reference);
}

TEST(LaunchArguments, AKernelArgumentInTheLaunchStillWorks) {
    nlohmann::json spec = with_rows();
    spec["launch"]["grid"][0] = "ceil_div(n, block_size_x * items_per_thread) + rows - rows";
    EXPECT_NO_THROW((void)parse_spec(spec, fixture_path()));
}

}  // namespace
}  // namespace optiml::spec
