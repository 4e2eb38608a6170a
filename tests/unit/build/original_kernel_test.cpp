// The original kernel is what the spec's defaults say, and a build that cannot tune says why:
// `optiml build` against the scripted worker (a "GPU" of sm_90) with real NVRTC compiles, for a
// Kernel Tuner kernel without #ifndef defaults, a source whose default disagrees with the spec's,
// and a source NVRTC cannot compile.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "driver/build/kernel_build.h"
#include "tests/unit/build/build_test_support.h"

namespace optiml::build {
namespace {
namespace fs = std::filesystem;

class OriginalKernelTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("optiml-original-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        fs::copy(fs::path(OPTIML_SOURCE_DIR) / "tests/data/kernels/tiled_matmul", dir_ / "project");
        setenv("OPTIML_WORKER", OPTIML_FAKE_WORKER, 1);
        setenv("OPTIML_LOCK_FILE", (dir_ / "gpu.lock").c_str(), 1);
        options_.spec = dir_ / "project/tiled_matmul.optiml.json";
        options_.archs = {90};
        options_.out_dir = dir_ / "out";
        options_.cache_dir = dir_ / "cache";
    }
    void TearDown() override {
        unsetenv("OPTIML_WORKER");
        unsetenv("OPTIML_LOCK_FILE");
        fs::remove_all(dir_);
    }
    std::string build() { return test::successful_build(options_); }
    std::string generated() const {
        return test::read_text(options_.out_dir / "optiml_tiled_matmul.cu");
    }
    void edit_source(const std::string& from, const std::string& to) const {
        const fs::path source = dir_ / "project/tiled_matmul.cu";
        std::string contents = test::read_text(source);
        contents.replace(contents.find(from), from.size(), to);
        std::ofstream(source, std::ios::trunc) << contents;
    }
    fs::path dir_;
    build::BuildOptions options_;
};

TEST_F(OriginalKernelTest, AKernelWithoutIfndefDefaultsTunesAndItsFallbackDefinesTheSpecsDefaults) {
    const std::string log = build();
    EXPECT_EQ(log.find("does not compile"), std::string::npos) << log;
    EXPECT_NE(log.find("sm_90: done: "), std::string::npos) << log;
    EXPECT_EQ(log.find("optiml: warning"), std::string::npos) << log;
    const std::string text = generated();
    const auto defaults = text.find("#ifndef tile_size_y\n#define tile_size_y 1\n#endif");
    ASSERT_NE(defaults, std::string::npos) << text;
    EXPECT_LT(defaults, text.find("tiled_matmul.cu\"")) << "the defaults come before the kernel";
}

// Spec default 16, source default 32: one warning naming both and the spec field, and the
// spec's value is the original in the launcher's fallback and its comment.
TEST_F(OriginalKernelTest, ADisagreeingSourceDefaultWarnsOnceAndTheSpecsDefaultIsTheOriginal) {
    edit_source("__global__",
                "#ifndef block_size_x\n#define block_size_x 32\n#endif\n\n__global__");
    const std::string log = build();
    EXPECT_NE(log.find("optiml: warning: tiled_matmul: tiled_matmul.cu:8 defines block_size_x as "
                       "32, but " +
                       options_.spec.string() + ": parameters[0].default is 16"),
              std::string::npos)
        << log;
    EXPECT_EQ(log.find("optiml: warning"), log.rfind("optiml: warning")) << "one warning\n" << log;
    const std::string text = generated();
    EXPECT_NE(text.find("#ifndef block_size_x\n#define block_size_x 16\n#endif"), std::string::npos)
        << text;
    const auto original = text.find("// Original kernel (any other architecture)");
    ASSERT_NE(original, std::string::npos) << text;
    EXPECT_EQ(text.find("block_size_x=16, block_size_y=16", original),
              text.find("block_size_x=16, block_size_y=16, tile_size_x=1, tile_size_y=1.\n"))
        << text;
}

// NVRTC has no host headers: the build goes on with the original kernel, says that the original
// did not compile, why, and what to do, and never that there is no GPU.
// With "compiler": "nvrtc" written: no nvcc to fall back on.
TEST_F(OriginalKernelTest, AnOriginalNvrtcCannotCompileIsNamedNotTakenForNoGpu) {
    edit_source("__global__", "#include <assert.h>\n\n__global__");
    std::string spec = test::read_text(options_.spec);  // JSON with comments: edited as text
    spec.insert(spec.find('{') + 1, "\n  \"compiler\": \"nvrtc\",");
    std::ofstream(options_.spec, std::ios::trunc) << spec;
    const std::string log = build();
    EXPECT_NE(log.find("the original kernel does not compile with NVRTC (tiled_matmul.cu, kernel "
                       "tiled_matmul)"),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("assert.h"), std::string::npos) << log;
    EXPECT_NE(log.find("#ifndef __CUDACC_RTC__"), std::string::npos) << log;
    EXPECT_NE(log.find("optiml: warning: tiled_matmul: no tuned entry for sm_90 (tuning on Fake "
                       "GPU failed: the original kernel does not compile with NVRTC"),
              std::string::npos)
        << log;
    EXPECT_EQ(log.find("no GPU"), std::string::npos) << log;
}

// "auto": NVRTC fails on the original, so nvcc compiles every variant, and the log says so.
TEST_F(OriginalKernelTest, AnOriginalNvrtcCannotCompileIsTunedWithNvcc) {
    edit_source("__global__", "#include <assert.h>\n\n__global__");
    const std::string log = build();
    EXPECT_NE(log.find("NVRTC cannot compile the original ("), std::string::npos) << log;
    EXPECT_NE(log.find("nvcc compiles the variants"), std::string::npos) << log;
    EXPECT_NE(log.find("sm_90: done: "), std::string::npos) << log;
}

}  // namespace
}  // namespace optiml::build
