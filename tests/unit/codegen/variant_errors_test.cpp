// Variants that cannot make a correct launcher are refused with a message naming the spec file,
// the variant and the fix.
#include <gtest/gtest.h>

#include <limits>

#include "driver/codegen/launcher.h"
#include "tests/unit/codegen/test_support.h"

namespace optiml::codegen {
namespace {

using test::fake_variant;

struct BadVariants {
    const char* label;
    std::vector<Variant> variants;
    std::vector<std::string> message_parts;
};

std::vector<BadVariants> bad_variants() {
    const std::map<std::string, std::int64_t> good = {{"block_size_x", 512},
                                                      {"items_per_thread", 4}};
    Variant no_images = fake_variant("sm_90", good);
    no_images.cubin.clear();
    no_images.ptx.clear();
    Variant no_symbol = fake_variant("sm_90", good);
    no_symbol.lowered_name.clear();
    // Plans of dispatch by size: a good one, then each way of breaking it.
    const auto planned = [&](auto&& edit) {
        Variant variant = fake_variant("sm_90", good);
        variant.by_size.arguments = {"n"};
        variant.by_size.smallest = 1024;
        variant.by_size.largest = 1 << 20;
        variant.by_size.ranges = {{32768, 0}, {std::numeric_limits<double>::infinity(), -1}};
        variant.by_size.variants = {fake_variant("sm_90", good)};
        edit(variant);
        return variant;
    };
    return {
        {"missing parameter",
         {fake_variant("sm_90", {{"block_size_x", 512}})},
         {"sm_90", "c0ffeesm_90", "parameter items_per_thread has no value", "OPTIML_MODE=retune"}},
        {"unknown parameter",
         {fake_variant("sm_90", {{"block_size_x", 512}, {"items_per_thread", 4}, {"unroll", 2}})},
         {"parameter unroll is not in the spec"}},
        {"arch-specific architecture",
         {fake_variant("sm_90a", good)},
         {"architecture \"sm_90a\" is not understood", "\"sm_90\""}},
        {"compute architecture", {fake_variant("compute_90", good)}, {"\"compute_90\""}},
        {"two variants for one architecture",
         {fake_variant("sm_90", good), fake_variant("sm_90", good)},
         {"two tuned variants for sm_90", "at most one cache entry per architecture"}},
        {"no images", {no_images}, {"neither a CUBIN nor PTX"}},
        {"no symbol", {no_symbol}, {"lowered kernel name is empty"}},
        {"size of a pointer",
         {planned([](Variant& v) { v.by_size.arguments = {"x"}; })},
         {"dispatch by size multiplies \"x\"", "integer scalar or launch arguments"}},
        {"size of nothing",
         {planned([](Variant& v) { v.by_size.arguments.clear(); })},
         {"names no argument"}},
        {"ranges not ascending",
         {planned([](Variant& v) {
             v.by_size.ranges.insert(v.by_size.ranges.begin() + 1, {1024, -1});
         })},
         {"not ascending up to infinity"}},
        {"last range bounded",
         {planned([](Variant& v) { v.by_size.ranges.back().below = 1e9; })},
         {"not ascending up to infinity"}},
        {"range of a variant it lacks",
         {planned([](Variant& v) { v.by_size.ranges.front().variant = 1; })},
         {"size range 0 runs variant 1, which it does not hold", "one of its 1 size variants"}},
        {"size variant of another architecture",
         {planned([&](Variant& v) { v.by_size.variants = {fake_variant("sm_80", good)}; })},
         {"a size variant is for sm_80"}},
        {"size variant without parameters",
         {planned([](Variant& v) { v.by_size.variants.front().winner.parameters.clear(); })},
         {"has no value"}},
        {"two axes",
         {planned([](Variant&) {}), planned([&](Variant& v) {
              v.arch = "sm_80";
              v.by_size.variants = {fake_variant("sm_80", good)};
              v.by_size.arguments = {"n", "n"};
          })},
         {"dispatch by the sizes of other arguments"}},
    };
}

TEST(VariantErrors, EachBadInputGetsOneClearMessage) {
    const spec::Spec spec = test::load_fixture("saxpy.optiml.json");
    for (const BadVariants& bad : bad_variants()) {
        SCOPED_TRACE(bad.label);
        try {
            generate_launcher(spec, bad.variants, {});
            ADD_FAILURE() << "accepted";
        } catch (const CodegenError& error) {
            const std::string message = error.what();
            EXPECT_TRUE(message.starts_with(spec.file.string() + ": ")) << message;
            EXPECT_NE(message.find("expected"), std::string::npos) << message;
            for (const std::string& part : bad.message_parts) {
                EXPECT_NE(message.find(part), std::string::npos) << message;
            }
        }
    }
}

}  // namespace
}  // namespace optiml::codegen
