// Variants that cannot make a correct launcher are refused with a message naming the spec file,
// the variant and the fix.
#include <gtest/gtest.h>

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
