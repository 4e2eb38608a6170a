// `optiml build` on a machine without a GPU (a scripted worker that lists none), against the
// saxpy example's committed seed cache: which entry each mode embeds and what it says.
#include "driver/build/kernel_build.h"
#include "cache/store.h"
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

// The seed's entry with a dispatch by size (as tune/size_tuning.cpp records one), put in the
// local cache: the launcher built from it picks by the launch's n, and the build line says how.
TEST_F(KernelBuildTest, AnEntryWithADispatchBySizeBuildsALauncherThatPicksBySize) {
    const cache::Store seed(options_.seeds.front(), true);
    cache::Entry entry = *seed.inspect(seed.keys().front());
    entry.directory.clear();
    entry.manifest.erase("sha256");
    entry.manifest.erase("signature");
    // Variant 1: the winner's images under the size files' names, at another block size.
    entry.files["size_1.cubin"] = entry.files.at("kernel.cubin");
    entry.files["size_1.ptx"] = entry.files.at("kernel.ptx");
    nlohmann::json small = {{"parameters", entry.manifest["parameters"]}};
    small["parameters"]["block_size_x"] = 128;
    entry.manifest["sizes"] = {
        {"problems", {{{"n", 4096}}, {{"n", 16777216}}}},
        {"variants", {{{"parameters", entry.manifest["parameters"]}}, small}},
        {"times_ms", {{2.0, 1.0}, {1.0, 2.0}}},
        {"dispatch",
         {{"variants", {0, 1}},
          {"ranges",
           {{{"variant", 1}, {"first_problem", 0}, {"last_problem", 0}, {"below", 262144.0}},
            {{"variant", 0}, {"first_problem", 1}, {"last_problem", 1}, {"below", nullptr}}}},
          {"loss", {0, 0}},
          {"images",
           {{"1",
             {{"cubin", "size_1.cubin"},
              {"ptx", "size_1.ptx"},
              {"lowered_name", entry.manifest["lowered_name"]}}}}}}}};
    entry.manifest["files"]["size_cubin_1"] = "size_1.cubin";
    entry.manifest["files"]["size_ptx_1"] = "size_1.ptx";
    cache::Store(options_.cache_dir).put(entry);

    const std::string log = build();
    EXPECT_NE(log.find("sm_90: dispatches by size (n): block_size_x=128 items_per_thread=1 "
                       "vector_size=4 below 2.62e+05, the winner above"),
              std::string::npos)
        << log;
    const std::string source = generated();
    EXPECT_NE(source.find("table_for_size(dispatch.variant, static_cast<double>(arg_n))"),
              std::string::npos);
    EXPECT_NE(source.find("if (size < 262144.0) return &size_1_table;"), std::string::npos)
        << source.substr(0, 4000);
    EXPECT_NE(source.find("case 1:  // sm_90 by size: block_size_x=128"), std::string::npos);
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
