// The evaluation fields added after the first seed caches: timing.cold_cache, check.extra_sizes
// and check.compare. Each is read into the Spec, and enters the normalized spec (the cache key)
// only when present, so that every existing key stays what it was.
#include <gtest/gtest.h>

#include <fstream>

#include "driver/spec/spec.h"
#include "tests/unit/spec/spec_test_support.h"

namespace optiml::spec {
namespace {

using testing::fixture_json;
using testing::fixture_path;
using testing::ScratchSpec;

Spec parsed(const nlohmann::json& spec) {
    return parse_spec(spec, fixture_path());
}

TEST(ColdCache, DefaultsToFlushAndReadsRotate) {
    EXPECT_EQ(parsed(fixture_json()).timing.cold_cache, ColdCache::Flush);
    nlohmann::json spec = fixture_json();
    spec["timing"] = {{"cold_cache", "rotate"}};
    EXPECT_EQ(parsed(spec).timing.cold_cache, ColdCache::Rotate);
    EXPECT_EQ(to_string(ColdCache::Rotate), "rotate");
}

TEST(ColdCache, EntersTheNormalizedSpecOnlyWhenItIsRotate) {
    const nlohmann::json reference = parsed(fixture_json()).normalized;
    EXPECT_FALSE(reference.contains("timing"));
    nlohmann::json flush = fixture_json();
    flush["timing"] = {{"cold_cache", "flush"}};
    EXPECT_EQ(parsed(flush).normalized, reference);
    nlohmann::json empty = fixture_json();
    empty["timing"] = nlohmann::json::object();
    EXPECT_EQ(parsed(empty).normalized, reference);
    nlohmann::json rotate = fixture_json();
    rotate["timing"] = {{"cold_cache", "rotate"}};
    const nlohmann::json changed = parsed(rotate).normalized;
    EXPECT_NE(changed, reference);
    EXPECT_EQ(changed.at("timing"), nlohmann::json({{"cold_cache", "rotate"}}));
}

TEST(ExtraSizes, AreReadAndChangeTheEnvironmentOnlyWhereTheyApply) {
    nlohmann::json spec = fixture_json();
    spec["check"]["extra_sizes"] = {{{"n", 1000003}}};
    const Spec read = parsed(spec);
    ASSERT_EQ(read.check.extra_sizes.size(), 1u);
    EXPECT_EQ(read.check.extra_sizes[0].scalars.at("n"), 1000003);
    EXPECT_EQ(describe(read.check.extra_sizes[0]), "n=1000003");
    const auto config = read.default_config();
    EXPECT_EQ(read.environment(config).at("n"), 33554432);
    EXPECT_EQ(read.environment(config, &read.check.extra_sizes[0]).at("n"), 1000003);
    EXPECT_EQ(read.environment(config, &read.check.extra_sizes[0]).at("block_size_x"), 256);
}

TEST(ExtraSizes, NameEverySetScalarInMessages) {
    EXPECT_EQ(describe(ProblemSize{{{"n", 7}, {"m", 3}}}), "m=3, n=7");
}

TEST(ExtraSizes, EnterTheNormalizedSpecOnlyWhenGiven) {
    const nlohmann::json reference = parsed(fixture_json()).normalized;
    EXPECT_FALSE(reference.at("check").contains("extra_sizes"));
    nlohmann::json none = fixture_json();
    none["check"]["extra_sizes"] = nlohmann::json::array();
    EXPECT_EQ(parsed(none).normalized, reference);
    nlohmann::json one = fixture_json();
    one["check"]["extra_sizes"] = {{{"n", 1000003}}};
    const nlohmann::json changed = parsed(one).normalized;
    EXPECT_EQ(changed.at("check").at("extra_sizes"), nlohmann::json::parse(R"([{"n": 1000003}])"));
    nlohmann::json other = fixture_json();
    other["check"]["extra_sizes"] = {{{"n", 1000005}}};
    EXPECT_NE(parsed(other).normalized, changed);
}

TEST(ExtraSizes, MustKeepTheOriginalWithinItsConstraints) {
    nlohmann::json spec = fixture_json();
    spec["constraints"].push_back("n % 256 == 0");
    spec["check"]["extra_sizes"] = {{{"n", 1000003}}};
    try {
        (void)parsed(spec);
        FAIL() << "accepted";
    } catch (const SpecError& error) {
        EXPECT_EQ(std::string(error.what()),
                  fixture_path().string() +
                      ": check.extra_sizes[0]: constraints[1]: 'n % 256 == 0' is false with the "
                      "default configuration (block_size_x=256, items_per_thread=1, n=1000003); "
                      "expected the defaults (the original kernel) to satisfy every constraint, "
                      "at every size in check.extra_sizes");
    }
}

TEST(CompareField, IsResolvedBesideTheSpecAndNormalizedAsWritten) {
    nlohmann::json with_compare = fixture_json();
    with_compare["check"]["compare"] = "checks/compare.cpp";
    const ScratchSpec scratch(with_compare.dump());
    std::filesystem::create_directories(scratch.directory() / "checks");
    std::ofstream(scratch.directory() / "checks/compare.cpp") << "// a comparison\n";
    const Spec spec = load_spec(scratch.path());
    EXPECT_EQ(spec.check.compare, scratch.directory() / "checks/compare.cpp");
    EXPECT_TRUE(spec.check.compare.is_absolute());
    EXPECT_EQ(spec.check.compare_as_written, "checks/compare.cpp");
    EXPECT_EQ(spec.normalized.at("check").at("compare"), "checks/compare.cpp");
    EXPECT_EQ(spec.normalized.dump().find(scratch.directory().string()), std::string::npos);
}

TEST(CompareField, IsAbsentFromTheNormalizedSpecWithoutOne) {
    const Spec spec = parsed(fixture_json());
    EXPECT_TRUE(spec.check.compare.empty());
    EXPECT_FALSE(spec.normalized.at("check").contains("compare"));
}

// The problems a kernel is tuned at: listed, or every power of two between bounds; the range
// and the list it holds are one normalized spec (one key), and one problem is no field at all.
TEST(Problems, AListOrPowersOfTwoBetweenBoundsEnterTheKeyExpanded) {
    EXPECT_TRUE(parsed(fixture_json()).problems.empty());
    EXPECT_FALSE(parsed(fixture_json()).normalized.contains("problems"));
    nlohmann::json listed = fixture_json();
    listed["problems"] = {{{"n", 1024}}, {{"n", 4096}}, {{"n", 16384}}, {{"n", 33554432}}};
    const Spec spec = parsed(listed);
    ASSERT_EQ(spec.problems.size(), 4u);
    EXPECT_EQ(spec.problems[1].scalars.at("n"), 4096);
    EXPECT_EQ(spec.problems[3].scalars.at("n"), 33554432);  // the arguments' own size may be one
    nlohmann::json range = fixture_json();
    range["problems"] = {{"powers_of_two", {{"n", {1000, 20000}}}}};
    const Spec ranged = parsed(range);
    ASSERT_EQ(ranged.problems.size(), 5u);  // 1024, 2048, 4096, 8192, 16384
    EXPECT_EQ(ranged.problems.front().scalars.at("n"), 1024);
    EXPECT_EQ(ranged.problems.back().scalars.at("n"), 16384);
    nlohmann::json same = fixture_json();
    same["problems"] = {{{"n", 1024}}, {{"n", 2048}}, {{"n", 4096}}, {{"n", 8192}}, {{"n", 16384}}};
    EXPECT_EQ(parsed(same).normalized, ranged.normalized);
    EXPECT_EQ(ranged.normalized["problems"][2], nlohmann::json({{"n", 4096}}));
    EXPECT_NE(spec.normalized, parsed(fixture_json()).normalized);
}

// One of the problems as a spec of its own, what tuning at that problem starts from.
TEST(Problems, AtAProblemTheArgumentsTakeItsValuesAndTheKeyFollows) {
    nlohmann::json listed = fixture_json();
    listed["problems"] = {{{"n", 1024}}, {{"n", 4096}}};
    const Spec spec = parsed(listed);
    const Spec small = at_problem(spec, spec.problems[0]);
    EXPECT_TRUE(small.problems.empty());
    EXPECT_EQ(small.environment(small.default_config()).at("n"), 1024);
    EXPECT_FALSE(small.normalized.contains("problems"));
    // The same spec as one written at that size from the start.
    nlohmann::json written = fixture_json();
    for (auto& argument : written["arguments"])
        if (argument["name"] == "n") argument["value"] = 1024;
    EXPECT_EQ(small.normalized, parsed(written).normalized);
    EXPECT_NE(at_problem(spec, spec.problems[1]).normalized, small.normalized);
    EXPECT_THROW(at_problem(spec, ProblemSize{{{"x", 5}}}), std::invalid_argument);
}

}  // namespace
}  // namespace optiml::spec
