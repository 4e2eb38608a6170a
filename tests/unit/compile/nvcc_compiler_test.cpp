// nvcc needs no GPU either: these compile the device code of a file that also holds host code.
#include "driver/compile/nvcc_compiler.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "driver/base/read_file.h"
#include "driver/compile/detail/cubin_symbols.h"
#include "driver/compile/image_cache.h"
#include "driver/compile/kernel_code.h"

namespace optiml::compile {
namespace {

const std::filesystem::path kMixed = std::filesystem::path(OPTIML_TEST_DATA) / "mixed";

CompileRequest mixed(const std::string& name_expression) {
    CompileRequest r;
    r.source_text = base::read_file(kMixed / "scale_rows.cu");
    r.source_name = "scale_rows.cu";
    r.name_expression = name_expression;
    r.include_dirs = {kMixed};  // the original's folder: "row_helpers.h" resolves there
    r.backend = Backend::Nvcc;
    return r;
}

TEST(Nvcc, NvrtcCannotCompileTheMixedFile) {
    CompileRequest request = mixed("scale_rows<32>");
    request.backend = Backend::Nvrtc;
    const CompileResult result = compile(request);
    EXPECT_FALSE(result.ok);
    EXPECT_FALSE(result.log.empty());
}

TEST(Nvcc, CompilesEachTemplateValueToItsLoadableName) {
    // 128 is what main() launches; 32 and 256 only the name expression instantiates.
    for (const int block : {32, 128, 256}) {
        const std::string name = "scale_rows<" + std::to_string(block) + ">";
        const CompileResult result = compile(mixed(name));
        ASSERT_TRUE(result.ok) << name << ":\n" << result.log;
        EXPECT_EQ(result.binary.substr(0, 4),
                  "\x7f"
                  "ELF");
        const std::string digits = std::to_string(block);
        EXPECT_EQ(result.lowered_name, "_Z10scale_rowsILi" + digits + "EEvPfi");
        const auto entries = cubin_entry_symbols(result.binary);
        EXPECT_NE(std::find(entries.begin(), entries.end(), result.lowered_name), entries.end());
    }
}

TEST(Nvcc, TheSameKernelLooksPastTheFileTheLineTableNames) {
    CompileRequest whole = mixed("scale_rows<64>");
    CompileRequest longer = whole;  // a longer file, the same device code on the same lines
    longer.source_text += "\nstatic int host_only_helper(int a) { return a * 42; }\n";
    CompileRequest other = whole;
    other.defines = {{"FACTOR", 3}};
    const CompileResult a = compile(whole);
    const CompileResult b = compile(longer);
    const CompileResult c = compile(other);
    ASSERT_TRUE(a.ok && b.ok && c.ok) << a.log << b.log << c.log;
    EXPECT_TRUE(same_kernel_code(a.binary, b.binary));
    EXPECT_FALSE(same_kernel_code(a.binary, c.binary));
    EXPECT_FALSE(same_kernel_code(a.binary, "not an ELF file"));
}

TEST(Nvcc, OneKernelIsComparedWithTheOtherInstancesSetAside) {
    // main() launches scale_rows<128>: the image for <64> holds both instances, the one for <128>
    // only its own.
    const CompileResult both = compile(mixed("scale_rows<64>"));
    const CompileResult one = compile(mixed("scale_rows<128>"));
    ASSERT_TRUE(both.ok && one.ok) << both.log << one.log;
    EXPECT_EQ(cubin_entry_symbols(both.binary).size(), 2u);
    EXPECT_EQ(cubin_entry_symbols(one.binary).size(), 1u);
    EXPECT_FALSE(same_kernel_code(both.binary, one.binary));
    EXPECT_TRUE(same_kernel_code(both.binary, one.binary, one.lowered_name));
    EXPECT_FALSE(same_kernel_code(both.binary, one.binary, both.lowered_name));
}

TEST(Nvcc, TheWholeFileCompilesWhereItsDeviceCodeAloneDoesNot) {
    CompileRequest request = mixed("scale_rows<64>");
    request.whole_file_text = request.source_text;
    request.source_text = "#error a macro of this variant needs a header left out\n";
    const CompileResult result = compile(request);
    ASSERT_TRUE(result.ok) << result.log;
    EXPECT_EQ(result.lowered_name, "_Z10scale_rowsILi64EEvPfi");
    request.whole_file_text.clear();
    EXPECT_FALSE(compile(request).ok);
}

TEST(Nvcc, MacroValuesChangeTheImage) {
    CompileRequest two = mixed("scale_rows<64>");
    CompileRequest three = two;
    three.defines = {{"FACTOR", 3}};
    const CompileResult a = compile(two);
    const CompileResult b = compile(three);
    ASSERT_TRUE(a.ok && b.ok) << a.log << b.log;
    EXPECT_EQ(a.lowered_name, b.lowered_name);
}

TEST(Nvcc, CompilesPtxWithTheSameName) {
    CompileRequest request = mixed("scale_rows<32>");
    request.output = Output::Ptx;
    request.arch = 80;
    const CompileResult result = compile(request);
    ASSERT_TRUE(result.ok) << result.log;
    EXPECT_NE(result.binary.find(".target sm_80"), std::string::npos);
    EXPECT_EQ(result.lowered_name, "_Z10scale_rowsILi32EEvPfi");
}

TEST(Nvcc, ACompileErrorComesBackWithNvccsLogNamingTheFile) {
    CompileRequest request = mixed("scale_rows<32>");
    request.source_text += "\n__global__ void broken(float* x) { x[0] = undeclared_name; }\n";
    const CompileResult result = compile(request);
    EXPECT_FALSE(result.ok);
    EXPECT_TRUE(result.binary.empty());
    EXPECT_NE(result.log.find("undeclared_name"), std::string::npos) << result.log;
    EXPECT_NE(result.log.find("scale_rows.cu"), std::string::npos) << result.log;
}

TEST(Nvcc, AMissingKernelIsNamed) {
    const CompileResult result = compile(mixed("no_such_kernel"));
    EXPECT_FALSE(result.ok);
    EXPECT_NE(result.log.find("'no_such_kernel' not found"), std::string::npos) << result.log;
}

TEST(Nvcc, OptionsPassThroughAndNvrtcOnlyOnesAreRefused) {
    CompileRequest request = mixed("scale_rows<32>");
    request.options = {"--use_fast_math", "--maxrregcount=32", "--dlink-time-opt"};
    const std::vector<std::string> arguments = nvcc_arguments(request, "in.cu", "out.cubin");
    for (const char* expected :
         {"-cubin", "-arch=sm_90", "-lineinfo", "--use_fast_math", "--maxrregcount=32", "-dlto"})
        EXPECT_NE(std::find(arguments.begin(), arguments.end(), expected), arguments.end())
            << expected;
    EXPECT_EQ(arguments.back(), "in.cu");
    request.options = {"--use_fast_math", "--ftz=true"};
    EXPECT_TRUE(compile(request).ok);

    request.options = {"-default-device"};
    const CompileResult refused = compile(request);
    EXPECT_FALSE(refused.ok);
    EXPECT_NE(refused.log.find("\"-default-device\" is NVRTC's only"), std::string::npos);
}

TEST(Nvcc, TheImageKeyNamesTheBackend) {
    CompileRequest request = mixed("scale_rows<32>");
    const std::string with_nvcc = image_key(request, "headers");
    request.backend = Backend::Nvrtc;
    EXPECT_NE(with_nvcc, image_key(request, "headers"));
}

// Separable compilation (-rdc=true): the relocatable CUBIN is device-linked alone into an
// executable one, which the runtime can load; the target's flags reach nvcc and the image key.
TEST(Nvcc, RelocatableBuildsAreDeviceLinkedIntoALoadableImage) {
    CompileRequest request = mixed("scale_rows<32>");
    request.relocatable = true;
    request.build_options = {"-DFACTOR=3", "-Xptxas=-O3"};
    const std::vector<std::string> arguments = nvcc_arguments(request, "in.cu", "out.cubin");
    for (const char* expected : {"-rdc=true", "-DFACTOR=3", "-Xptxas=-O3"})
        EXPECT_NE(std::find(arguments.begin(), arguments.end(), expected), arguments.end())
            << expected;
    const std::vector<std::string> link = nvcc_device_link_arguments(request, "r.cubin", "x.cubin");
    EXPECT_NE(std::find(link.begin(), link.end(), "-dlink"), link.end());

    const CompileResult linked = compile(request);
    ASSERT_TRUE(linked.ok) << linked.log;
    // ELF e_type at offset 16: 2 (ET_EXEC) is loadable, 1 (ET_REL) is not.
    ASSERT_GT(linked.binary.size(), 17u);
    EXPECT_EQ(linked.binary[16], 2);
    EXPECT_EQ(linked.lowered_name, "_Z10scale_rowsILi32EEvPfi");

    CompileRequest whole = request;
    whole.relocatable = false;
    const CompileResult unlinked = compile(whole);
    ASSERT_TRUE(unlinked.ok) << unlinked.log;
    EXPECT_NE(image_key(request, "h"), image_key(whole, "h"));
    whole.build_options.clear();
    EXPECT_NE(image_key(request, "h"), image_key(whole, "h"));
}

TEST(Nvcc, ReportsItsVersion) {
    EXPECT_FALSE(nvcc_version().empty());
    EXPECT_EQ(compiler_version(Backend::Nvcc), nvcc_version());
}

}  // namespace
}  // namespace optiml::compile
