// The launcher's dispatch by size read from an entry's "sizes" record: matrix rows become size
// variants with their own images, adjacent ranges of one variant merge, a variant without images
// leaves its range to the winner, and entries without a usable dispatch build as before.
#include "driver/build/detail/size_plan.h"

#include <gtest/gtest.h>

#include <cmath>

namespace optiml::build {
namespace {

// A record as tune/size_tuning.cpp writes it: three variants, the winner (row 0) in the middle
// of the axis, row 2 below and row 1 above; row 1 and 2's images in the entry.
nlohmann::json record() {
    return nlohmann::json::parse(R"({
      "problems": [{"n": 1024}, {"n": 65536}, {"n": 4194304}, {"n": 16777216}],
      "variants": [{"parameters": {"block_size_x": 256}}, {"parameters": {"block_size_x": 1024}},
                   {"parameters": {"block_size_x": 64}}],
      "times_ms": [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]],
      "dispatch": {
        "variants": [0, 1, 2],
        "ranges": [
          {"variant": 2, "first_problem": 0, "last_problem": 0, "below": 8192},
          {"variant": 0, "first_problem": 1, "last_problem": 1, "below": 524288},
          {"variant": 1, "first_problem": 2, "last_problem": 2, "below": 8388608},
          {"variant": 1, "first_problem": 3, "last_problem": 3, "below": null}],
        "loss": [0, 0, 0, 0],
        "images": {
          "1": {"cubin": "size_1.cubin", "ptx": "size_1.ptx", "lowered_name": "_Z5big"},
          "2": {"cubin": "size_2.cubin", "ptx": "size_2.ptx", "lowered_name": "_Z5small"}}}
    })");
}

struct Fixture {
    cache::Entry entry;
    cache::EntryManifest manifest;
    codegen::Variant winner;
};

Fixture fixture(const nlohmann::json& sizes) {
    Fixture f;
    f.entry.key = "k";
    f.entry.files = {
        {"size_1.cubin", "C1"}, {"size_1.ptx", "P1"}, {"size_2.cubin", "C2"}, {"size_2.ptx", "P2"}};
    f.manifest.arch = "sm_90";
    f.manifest.sizes = sizes;
    f.winner.arch = "sm_90";
    f.winner.lowered_name = "_Z6winner";
    f.winner.cubin = "C0";
    f.winner.constant_symbols["scale"] = "scale_lowered";
    return f;
}

TEST(SizePlan, RowsBecomeSizeVariantsWithTheirImagesAndAdjacentRangesMerge) {
    const Fixture f = fixture(record());
    std::string note;
    const codegen::SizeDispatchPlan plan = size_plan(f.entry, f.manifest, f.winner, note);
    EXPECT_TRUE(note.empty()) << note;
    EXPECT_EQ(plan.arguments, std::vector<std::string>{"n"});
    EXPECT_EQ(plan.smallest, 1024);
    EXPECT_EQ(plan.largest, 16777216);
    ASSERT_EQ(plan.ranges.size(), 3u);
    EXPECT_EQ(plan.ranges[0].below, 8192);
    EXPECT_EQ(plan.ranges[1].below, 524288);
    EXPECT_TRUE(std::isinf(plan.ranges[2].below)) << "row 1's two ranges are one";
    EXPECT_EQ(plan.ranges[1].variant, -1) << "the winner's own range";
    ASSERT_EQ(plan.variants.size(), 2u);
    const codegen::Variant& small = plan.variants[static_cast<std::size_t>(plan.ranges[0].variant)];
    const codegen::Variant& big = plan.variants[static_cast<std::size_t>(plan.ranges[2].variant)];
    EXPECT_EQ(small.winner.parameters.at("block_size_x"), 64);
    EXPECT_EQ(small.cubin, "C2");
    EXPECT_EQ(small.ptx, "P2");
    EXPECT_EQ(small.lowered_name, "_Z5small");
    EXPECT_EQ(big.winner.parameters.at("block_size_x"), 1024);
    EXPECT_EQ(big.cubin, "C1");
    EXPECT_EQ(big.arch, "sm_90");
    EXPECT_EQ(big.constant_symbols.at("scale"), "scale_lowered");
    EXPECT_TRUE(big.by_size.ranges.empty());
}

TEST(SizePlan, TheBuildLineSaysWhichVariantRunsWhichSizes) {
    const Fixture f = fixture(record());
    std::string note;
    EXPECT_EQ(describe_plan(size_plan(f.entry, f.manifest, f.winner, note)),
              "by size (n): block_size_x=64 below 8.19e+03, the winner below 5.24e+05, "
              "block_size_x=1024 above");
}

TEST(SizePlan, AVariantWithoutImagesLeavesItsRangeToTheWinner) {
    nlohmann::json sizes = record();
    sizes["dispatch"]["images"].erase("2");
    const Fixture f = fixture(sizes);
    std::string note;
    const codegen::SizeDispatchPlan plan = size_plan(f.entry, f.manifest, f.winner, note);
    ASSERT_EQ(plan.ranges.size(), 2u) << "row 2's range joins the winner's";
    EXPECT_EQ(plan.ranges[0].variant, -1);
    EXPECT_EQ(plan.ranges[0].below, 524288);
    ASSERT_EQ(plan.variants.size(), 1u);
    EXPECT_EQ(plan.variants[0].cubin, "C1");
}

TEST(SizePlan, EntriesWithoutAUsableDispatchHaveNoPlan) {
    std::string note;
    const auto plan_of = [&](const nlohmann::json& sizes) {
        const Fixture f = fixture(sizes);
        return size_plan(f.entry, f.manifest, f.winner, note);
    };
    EXPECT_TRUE(plan_of(nullptr).ranges.empty()) << "an entry without sizes";
    nlohmann::json no_dispatch = record();
    no_dispatch.erase("dispatch");
    EXPECT_TRUE(plan_of(no_dispatch).ranges.empty());
    nlohmann::json one = record();
    one["dispatch"]["ranges"] = nlohmann::json::parse(
        R"([{"variant": 0, "first_problem": 0, "last_problem": 3, "below": null}])");
    EXPECT_TRUE(plan_of(one).ranges.empty()) << "the winner at every size";
    nlohmann::json two_axes = record();
    two_axes["problems"][1] = {{"n", 65536}, {"m", 2}};
    EXPECT_TRUE(plan_of(two_axes).ranges.empty()) << "problems that set other arguments";
    EXPECT_TRUE(note.empty()) << note;
}

// The dispatch may find another variant within 3% of every problem's best where the winner at
// the arguments' own values is not: that variant runs every size.
TEST(SizePlan, AnotherSingleVariantRunsEverySize) {
    nlohmann::json sizes = record();
    sizes["dispatch"]["ranges"] = nlohmann::json::parse(
        R"([{"variant": 1, "first_problem": 0, "last_problem": 3, "below": null}])");
    const Fixture f = fixture(sizes);
    std::string note;
    const codegen::SizeDispatchPlan plan = size_plan(f.entry, f.manifest, f.winner, note);
    ASSERT_EQ(plan.ranges.size(), 1u);
    EXPECT_EQ(plan.ranges[0].variant, 0);
    EXPECT_TRUE(std::isinf(plan.ranges[0].below));
    ASSERT_EQ(plan.variants.size(), 1u);
    EXPECT_EQ(plan.variants[0].cubin, "C1");
}

TEST(SizePlan, AMalformedRecordIsNoDispatchAndSaysWhy) {
    nlohmann::json sizes = record();
    sizes["dispatch"]["ranges"][0]["variant"] = "two";
    const Fixture f = fixture(sizes);
    std::string note;
    const codegen::SizeDispatchPlan plan = size_plan(f.entry, f.manifest, f.winner, note);
    EXPECT_TRUE(plan.ranges.empty());
    EXPECT_NE(note.find("sm_90: the entry's \"sizes\" record is malformed"), std::string::npos)
        << note;
    EXPECT_NE(note.find("OPTIML_MODE=retune"), std::string::npos) << note;
}

}  // namespace
}  // namespace optiml::build
