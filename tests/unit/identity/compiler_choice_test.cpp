// Which compiler builds a spec's variants, and that the key says so: a kernel among host code
// (the mixed fixture of tests/unit/compile) goes to nvcc under "auto"; device code stays with
// NVRTC, with the key it always had.
#include "driver/identity/compiler_choice.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "driver/identity/kernel_key.h"
#include "driver/tune/candidate_evaluator.h"

namespace optiml::identity {
namespace {
namespace fs = std::filesystem;

const fs::path kMixed = fs::path(OPTIML_SOURCE_DIR) / "tests/unit/compile/data/mixed";

class CompilerChoiceTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("optiml-compiler-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::copy(kMixed, dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    spec::Spec spec(const std::string& compiler) const {
        nlohmann::json json = {
            {"name", "scale_rows"},
            {"source", "scale_rows.cu"},
            {"kernel", "scale_rows<64>"},
            {"arguments",
             {{{"name", "rows"},
               {"type", "float32"},
               {"pointer", true},
               {"count", "n"},
               {"role", "inout"}},
              {{"name", "n"}, {"type", "int32"}, {"value", 1024}}}},
            {"launch", {{"block", {"64"}}, {"grid", {"ceil_div(n, 64)"}}}},
            {"parameters", {{{"name", "FACTOR"}, {"values", {2, 3}}, {"default", 2}}}},
        };
        if (!compiler.empty()) json["compiler"] = compiler;
        const fs::path file = dir_ / "scale_rows.optiml.json";
        std::ofstream(file) << json.dump(2);
        return spec::load_spec(file);
    }

    // The kernel without its host code: NVRTC compiles it.
    void write_device_code() const {
        std::ofstream(dir_ / "scale_rows.cu")
            << "#include \"row_helpers.h\"\n"
               "template <int BLOCK> __global__ void scale_rows(float* rows, int n) {\n"
               "    const int i = blockIdx.x * BLOCK + threadIdx.x;\n"
               "    if (i < n) rows[i] = scaled(rows[i]);\n}\n";
    }

    std::string key(const spec::Spec& s) const {
        return cache::compute_key(identity::key_inputs(s, identity::scan_sources(s), 90));
    }

    fs::path dir_;
};

TEST_F(CompilerChoiceTest, AutoPicksNvccWhereNvrtcCannotCompileTheOriginal) {
    const spec::Spec mixed = spec("");  // "auto", and main() is allowed
    const identity::CompilerChoice choice = identity::choose_compiler(mixed, 90);
    EXPECT_EQ(choice.backend, compile::Backend::Nvcc);
    EXPECT_FALSE(choice.nvrtc_log.empty());

    const compile::CompileRequest request =
        identity::make_compile_request(mixed, {{"FACTOR", 3}}, 90, compile::Output::Cubin);
    EXPECT_EQ(request.backend, compile::Backend::Nvcc);
    const compile::CompileResult result = compile::compile(request);
    ASSERT_TRUE(result.ok) << result.log;
    EXPECT_EQ(result.lowered_name, "_Z10scale_rowsILi64EEvPfi");
}

TEST_F(CompilerChoiceTest, TheKeyNamesNvccAndItsVersion) {
    const spec::Spec automatic = spec("");
    const cache::KeyInputs inputs =
        identity::key_inputs(automatic, identity::scan_sources(automatic), 90);
    EXPECT_EQ(inputs.compiler, "nvcc");
    EXPECT_FALSE(inputs.compiler_version.empty());
    EXPECT_EQ(identity::key_summary(inputs)["compiler"], "nvcc");

    // The same inputs with NVRTC: another key (and nvrtc's spec says so, too).
    cache::KeyInputs as_nvrtc = inputs;
    as_nvrtc.compiler.clear();
    as_nvrtc.compiler_version.clear();
    EXPECT_NE(cache::compute_key(inputs), cache::compute_key(as_nvrtc));
    EXPECT_NE(key(spec("nvcc")), key(spec("")));  // "nvcc" written: in the normalized spec too
}

TEST_F(CompilerChoiceTest, DeviceCodeStaysWithNvrtcAndItsOldKey) {
    write_device_code();
    const spec::Spec automatic = spec("auto");
    EXPECT_EQ(identity::choose_compiler(automatic, 90).backend, compile::Backend::Nvrtc);
    const cache::KeyInputs inputs =
        identity::key_inputs(automatic, identity::scan_sources(automatic), 90);
    EXPECT_TRUE(inputs.compiler.empty());
    EXPECT_EQ(key(automatic), key(spec("")));
    EXPECT_EQ(identity::choose_compiler(spec("nvcc"), 90).backend, compile::Backend::Nvcc);
}

// The probe's key: the original at its defaults as NVRTC would compile it, with its headers.
std::string probe_key(const spec::Spec& s) {
    return compile::image_key(
        identity::make_compile_request(s, s.default_config(), 90, compile::Output::Cubin,
                                       compile::Backend::Nvrtc),
        identity::headers_digest(identity::scan_sources(s)));
}

TEST_F(CompilerChoiceTest, AProbeThatCompiledIsKeptInTheImageCache) {
    write_device_code();
    const spec::Spec automatic = spec("auto");
    compile::ImageCache images(dir_ / "images");
    ASSERT_FALSE(images.find(probe_key(automatic)));
    const cache::KeyInputs inputs =
        identity::key_inputs(automatic, identity::scan_sources(automatic), 90, {}, &images);
    EXPECT_TRUE(inputs.compiler.empty());  // NVRTC
    const auto kept = images.find(probe_key(automatic));
    ASSERT_TRUE(kept);
    EXPECT_EQ(kept->lowered_name, "_Z10scale_rowsILi64EEvPfi");
    // A header edit is another probe.
    std::ofstream(dir_ / "row_helpers.h", std::ios::app) << "// edited\n";
    EXPECT_FALSE(images.find(probe_key(automatic)));
}

// A later run finds the probe's image and compiles nothing: planted here under the probe's key for
// the kernel among host code, whose NVRTC compile fails, the image answers NVRTC.
TEST_F(CompilerChoiceTest, AKeptProbeAnswersWithoutCompiling) {
    const spec::Spec mixed = spec("");
    compile::ImageCache images(dir_ / "images");
    compile::CompileResult planted;
    planted.ok = true;
    planted.binary = "planted image";
    planted.lowered_name = "_Z10scale_rowsILi64EEvPfi";
    images.store(probe_key(mixed), planted);
    const cache::KeyInputs inputs =
        identity::key_inputs(mixed, identity::scan_sources(mixed), 90, {}, &images);
    EXPECT_TRUE(inputs.compiler.empty()) << inputs.compiler;  // not the nvcc a compile would pick
}

TEST_F(CompilerChoiceTest, NvrtcWrittenRefusesAFileWithMain) {
    EXPECT_THROW(spec("nvrtc"), spec::SpecError);
}

}  // namespace
}  // namespace optiml::identity
