// What a spec checks in its kernel source without a compiler: template kernels named with their
// arguments pass, and #define defaults that disagree with the spec's `default` are reported (the
// spec's are the original everywhere).
#include <gtest/gtest.h>

#include "driver/spec/kernel_source.h"
#include "driver/spec/spec.h"
#include "tests/unit/spec/spec_test_support.h"

namespace optiml::spec {
namespace {

using testing::fixture_json;
using testing::fixture_path;

Spec patched(const char* patch) {
    return parse_spec(fixture_json().patch(nlohmann::json::parse(patch)), fixture_path());
}

TEST(KernelSource, ATemplateKernelNamedWithItsArgumentsIsAccepted) {
    const Spec spec =
        patched(R"([{"op": "replace", "path": "/source", "value": "template_saxpy.cu"},
                                  {"op": "replace", "path": "/kernel", "value": "saxpy<256>"}])");
    EXPECT_EQ(spec.kernel, "saxpy<256>");
}

TEST(KernelSource, ReadsTheSourcesIfndefDefaults) {
    const Spec spec = parse_spec(fixture_json(), fixture_path());
    const std::vector<SourceDefault> defaults = source_defaults(spec);
    ASSERT_EQ(defaults.size(), 2u);
    EXPECT_EQ(spec.parameters[defaults[0].parameter].name, "block_size_x");
    EXPECT_EQ(defaults[0].value, 256);
    EXPECT_EQ(defaults[0].line, 6);
    EXPECT_EQ(defaults[1].value, 1);
    EXPECT_TRUE(default_mismatches(spec).empty());
}

TEST(KernelSource, ADisagreeingDefaultIsOneWarningNamingBothValuesAndTheField) {
    const Spec spec =
        patched(R"([{"op": "replace", "path": "/parameters/0/default", "value": 512}])");
    const std::vector<std::string> warnings = default_mismatches(spec);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], "saxpy.cu:6 defines block_size_x as 256, but " +
                               fixture_path().lexically_normal().string() +
                               ": parameters[0].default is 512; the spec's default is the "
                               "original everywhere (tuning, verification and the launcher's "
                               "nvcc fallback): make the two agree");
}

TEST(KernelSource, AKernelWithoutDefaultsHasNothingToDisagreeWith) {
    const Spec spec =
        patched(R"([{"op": "replace", "path": "/source", "value": "template_saxpy.cu"},
                                  {"op": "replace", "path": "/kernel", "value": "saxpy<256>"}])");
    EXPECT_TRUE(source_defaults(spec).empty());
    EXPECT_TRUE(default_mismatches(spec).empty());
}

}  // namespace
}  // namespace optiml::spec
