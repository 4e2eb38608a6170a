// What a spec checks in its kernel source without a compiler: template kernels named with their
// arguments pass, and #define defaults that disagree with the spec's `default` are reported (the
// spec's are the original everywhere).
#include <gtest/gtest.h>

#include <fstream>

#include "driver/spec/kernel_source.h"
#include "driver/spec/spec.h"
#include "tests/unit/spec/spec_test_support.h"

namespace optiml::spec {
namespace {

using testing::fixture_json;
using testing::fixture_path;
using testing::ScratchSpec;

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

// The fixture spec with its kernel source replaced by `code` (kernel.cu in a scratch folder).
Spec with_source(const ScratchSpec& scratch, const std::string& code,
                 const std::string& kernel = "saxpy") {
    std::ofstream(scratch.directory() / "kernel.cu", std::ios::binary) << code;
    nlohmann::json json = fixture_json();
    json["source"] = "kernel.cu";
    json["kernel"] = kernel;
    return parse_spec(json, scratch.path());
}

std::string load_failure(const ScratchSpec& scratch, const std::string& code,
                         const std::string& kernel = "saxpy") {
    try {
        (void)with_source(scratch, code, kernel);
    } catch (const SpecError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(KernelSource, DefinesInCommentsAndStringsAndFunctionLikeMacrosAreNoDefaults) {
    const ScratchSpec scratch("{}");
    const Spec spec = with_source(scratch,
                                  "// #define block_size_x 64\n"
                                  "/* #define block_size_x 32\n"
                                  "   #define items_per_thread 2 */\n"
                                  "const char* s = \"#define block_size_x 16\";\n"
                                  "#define items_per_thread(x) x\n"
                                  "#ifndef block_size_x\n"
                                  "  #  define block_size_x 256 /* threads */ // the default\n"
                                  "#endif\n"
                                  "__global__ void saxpy(int n) {}\n");
    const std::vector<SourceDefault> defaults = source_defaults(spec);
    ASSERT_EQ(defaults.size(), 1u);
    EXPECT_EQ(spec.parameters[defaults[0].parameter].name, "block_size_x");
    EXPECT_EQ(defaults[0].text, "256");
    EXPECT_EQ(defaults[0].value, 256);
    EXPECT_EQ(defaults[0].line, 7);
    EXPECT_TRUE(default_mismatches(spec).empty());
}

TEST(KernelSource, ADefaultThatIsNoIntegerLiteralDisagrees) {
    const ScratchSpec scratch("{}");
    const Spec spec = with_source(scratch,
                                  "#define block_size_x (4 * 64)\n"
                                  "#define items_per_thread (1)\n"
                                  "__global__ void saxpy(int n) {}\n");
    const std::vector<SourceDefault> defaults = source_defaults(spec);
    ASSERT_EQ(defaults.size(), 2u);
    EXPECT_EQ(defaults[0].text, "(4 * 64)");
    EXPECT_EQ(defaults[0].value, std::nullopt);
    EXPECT_EQ(defaults[1].value, 1);
    ASSERT_EQ(default_mismatches(spec).size(), 1u);
    EXPECT_NE(default_mismatches(spec)[0].find("kernel.cu:1 defines block_size_x as (4 * 64)"),
              std::string::npos);
}

TEST(KernelSource, MainIsADefinitionInCodeOnly) {
    const ScratchSpec scratch("{}");
    const std::string kernel = "__global__ void saxpy(int n) {}\n";
    EXPECT_EQ(
        main_definition_line(with_source(scratch, kernel + "// int main() {\n"
                                                           "const char* s = \"int main() {\";\n"
                                                           "#define M int main() {\n"
                                                           "int main(int argc, char** argv);\n"
                                                           "int x = ns::int main;\n")),
        std::nullopt);
    EXPECT_EQ(main_definition_line(with_source(scratch, kernel + "\nstatic int\nmain(void) {}\n")),
              3);
    EXPECT_EQ(main_definition_line(with_source(scratch, kernel + "auto main() -> int {}\n")), 2);
    EXPECT_EQ(main_definition_line(
                  with_source(scratch, kernel + "int /* the program */ main(int, char**)\n{\n}\n")),
              2);
}

TEST(KernelSource, ATemplateKernelIsFoundPastItsAnnotationsAndOnlyInCode) {
    const ScratchSpec scratch("{}");
    const std::string template_kernel =
        "template <int B>\n"
        "__global__ void __launch_bounds__(B, 2) __attribute__((used)) saxpy(int n) {}\n";
    EXPECT_NE(load_failure(scratch, "/* __global__ void saxpy(int n) {} */\n" + template_kernel)
                  .find("\"saxpy\" is a function template (kernel.cu line 3)"),
              std::string::npos);
    // A plain kernel of that name beside the template is the one the spec means.
    EXPECT_EQ(load_failure(scratch, template_kernel + "__global__ void saxpy(float* y) {}\n"),
              "(no error)");
    // A template elsewhere, or one whose declaration ended before the kernel, does not count.
    EXPECT_EQ(load_failure(scratch,
                           "template <int B> struct Tile;\n"
                           "const char* s = \"template <int B> __global__ void saxpy(\";\n"
                           "__global__ void saxpy(int n) {}\n"),
              "(no error)");
}

}  // namespace
}  // namespace optiml::spec
