// `optiml build` on a machine without a GPU (a scripted worker that lists none), against the
// saxpy example's committed seed cache: which entry each mode embeds and what it says.
#include "driver/build/kernel_build.h"
#include "tests/unit/build/build_test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace optiml::build {
namespace {
namespace fs = std::filesystem;

class KernelBuildTest : public ::testing::Test {
  protected:
    void SetUp() override {
        setenv("OPTIML_WORKER", OPTIML_FAKE_WORKER, 1);  // no GPU, whatever the machine
        setenv("FAKE_DEVICES", "0", 1);
        dir_ = fs::temp_directory_path() / ("optiml-build-test-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        options_.spec = fs::path(OPTIML_SOURCE_DIR) / "examples/saxpy/kernels/saxpy.optiml.json";
        options_.archs = {90};
        options_.out_dir = dir_ / "out";
        options_.depfile = dir_ / "out/saxpy.d";
        options_.cache_dir = dir_ / "cache";
        options_.seeds = {fs::path(OPTIML_SOURCE_DIR) / "examples/saxpy/optiml-seed"};
    }
    void TearDown() override {
        unsetenv("FAKE_DEVICES");
        fs::remove_all(dir_);
    }

    std::string build() { return test::successful_build(options_); }
    std::string generated() const { return test::read_text(options_.out_dir / "optiml_saxpy.cu"); }
    static int count(const std::string& text, const std::string& what) {
        int n = 0;
        for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
        return n;
    }
    fs::path dir_;
    build::BuildOptions options_;
};

TEST_F(KernelBuildTest, AutoModeEmbedsTheSeedEntry) {
    const std::string log = build();
    EXPECT_NE(log.find("sm_90: cache hit"), std::string::npos) << log;
    EXPECT_EQ(count(log, "optiml: warning"), 0) << log;
    EXPECT_NE(generated().find("vector_size=4"), std::string::npos);
}

TEST_F(KernelBuildTest, AMissingArchitectureWarnsOnceAndKeepsTheOriginal) {
    options_.archs = {90, 80, 100};
    const std::string log = build();
    EXPECT_EQ(count(log, "optiml: warning"), 1) << log;
    EXPECT_NE(log.find("no tuned entry for sm_80, sm_100 (no GPU of that architecture to tune on)"),
              std::string::npos)
        << log;
}

// A worker that is not there is a broken install, not a machine without a GPU: the warning says
// which program is missing, and never that there is no GPU.
TEST_F(KernelBuildTest, AMissingWorkerIsNamedNotTakenForNoGpu) {
    setenv("OPTIML_WORKER", "/nonexistent/optiml-worker", 1);
    options_.archs = {90, 80};
    const std::string log = build();
    EXPECT_EQ(count(log, "optiml: warning"), 1) << log;
    EXPECT_NE(log.find("no tuned entry for sm_80 (cannot tune: the worker program "
                       "/nonexistent/optiml-worker does not exist"),
              std::string::npos)
        << log;
    EXPECT_EQ(log.find("no GPU"), std::string::npos) << log;
}

// The same checkout reached through a symbolic link (a linked home folder, a CI workspace) has
// the same key, so the committed seed still hits.
TEST_F(KernelBuildTest, ASpecReachedThroughASymlinkedFolderHitsTheSeed) {
    fs::create_directories(dir_);
    const fs::path link = dir_ / "checkout-link";
    fs::create_directory_symlink(fs::path(OPTIML_SOURCE_DIR), link);
    options_.spec = link / "examples/saxpy/kernels/saxpy.optiml.json";
    options_.seeds = {link / "examples/saxpy/optiml-seed"};
    options_.mode = build::Mode::CacheOnly;
    const std::string log = build();
    EXPECT_NE(log.find("sm_90: cache hit"), std::string::npos) << log;
    EXPECT_EQ(count(log, "optiml: warning"), 0) << log;
}

TEST_F(KernelBuildTest, RetuneWithoutAGpuKeepsTheCachedEntry) {
    options_.mode = build::Mode::Retune;
    const std::string log = build();
    EXPECT_NE(log.find("no GPU of this architecture to retune on"), std::string::npos) << log;
    EXPECT_EQ(count(log, "optiml: warning"), 0) << log;
    EXPECT_NE(generated().find("vector_size=4"), std::string::npos);
}

// A hit whose manifest this version cannot read is a miss with its reason: the build goes on
// with the original kernel, never fails on it.
TEST_F(KernelBuildTest, AnUnreadableManifestIsAMissThatSaysWhy) {
    fs::create_directories(dir_);
    fs::copy(options_.seeds.front(), options_.cache_dir, fs::copy_options::recursive);
    options_.seeds.clear();
    for (const auto& file : fs::recursive_directory_iterator(options_.cache_dir)) {
        if (file.path().filename() != "manifest.json") continue;
        fs::permissions(file.path(), fs::perms::owner_write, fs::perm_options::add);
        nlohmann::json manifest = nlohmann::json::parse(test::read_text(file.path()));
        manifest["speedup"] = "fast";
        std::ofstream(file.path()) << manifest.dump(2);
    }
    const std::string log = build();
    EXPECT_NE(log.find("manifest field \"speedup\" is not a number"), std::string::npos) << log;
    EXPECT_NE(log.find("treated as a miss"), std::string::npos) << log;
    EXPECT_EQ(log.find("cache hit"), std::string::npos) << log;
    EXPECT_EQ(generated().find("vector_size=4"), std::string::npos);
}

TEST_F(KernelBuildTest, OffModeIgnoresEveryCache) {
    options_.mode = build::Mode::Off;
    const std::string log = build();
    EXPECT_EQ(log.find("cache hit"), std::string::npos) << log;
    EXPECT_EQ(generated().find("vector_size=4"), std::string::npos);
    EXPECT_FALSE(fs::exists(options_.cache_dir)) << "off must not touch the cache";
}

TEST_F(KernelBuildTest, CacheOnlyWithoutASeedWarnsAndNeverTunes) {
    options_.mode = build::Mode::CacheOnly;
    options_.seeds.clear();
    const std::string log = build();
    EXPECT_EQ(count(log, "optiml: warning"), 1) << log;
    EXPECT_NE(log.find("cache-only"), std::string::npos) << log;
}

TEST_F(KernelBuildTest, TheDepfileNamesTheSpecTheSourceForTheGeneratedSource) {
    build();
    std::ifstream in(options_.depfile);
    std::ostringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str().rfind((options_.out_dir / "optiml_saxpy.cu").string() + ":", 0), 0u)
        << text.str();
    EXPECT_NE(text.str().find("saxpy.optiml.json"), std::string::npos);
    EXPECT_NE(text.str().find("kernels/saxpy.cu"), std::string::npos);
}

// A build that tunes nothing still compiles the spec's generators: one that does not compile is
// said where it was written (here, without a GPU), not first on the GPU machine; the build goes
// on with the original kernel.
TEST_F(KernelBuildTest, WithoutAGpuAGeneratorThatDoesNotCompileIsSaidAndTheBuildGoesOn) {
    const fs::path kernels = fs::path(OPTIML_SOURCE_DIR) / "tests/data/kernels/spmv_csr";
    fs::create_directories(dir_ / "spmv");
    for (const char* file :
         {"spmv_csr.cu", "spmv_csr.optiml.json", "make_csr.cpp", "csr_builder.h"})
        fs::copy_file(kernels / file, dir_ / "spmv" / file);
    options_.spec = dir_ / "spmv/spmv_csr.optiml.json";
    options_.seeds.clear();
    options_.depfile = dir_ / "out/spmv_csr.d";
    std::string log = build();
    EXPECT_EQ(count(log, "optiml: warning"), 1) << log;  // only "no tuned entry": it compiles
    std::ofstream(dir_ / "spmv/make_csr.cpp", std::ios::app) << "\nthis is not C++;\n";
    log = build();
    EXPECT_EQ(count(log, "optiml: warning"), 2) << log;
    EXPECT_NE(log.find("make_csr.cpp: the input generator (the \"generator\" fill of row_ptr in "),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("does not compile with the host compiler"), std::string::npos) << log;
    EXPECT_NE(log.find("A tuning on a GPU would stop there"), std::string::npos) << log;
}

TEST_F(KernelBuildTest, ABadSpecIsOneClearErrorNotACrash) {
    const fs::path bad = dir_ / "bad.optiml.json";
    fs::create_directories(dir_);
    std::ofstream(bad) << R"({"name": "x", "source": "missing.cu"})";
    options_.spec = bad;
    std::ostringstream log;
    EXPECT_EQ(build::run_build(options_, log), 1);
    EXPECT_EQ(log.str().rfind("optiml: error: " + bad.string(), 0), 0u) << log.str();
}

}  // namespace
}  // namespace optiml::build
