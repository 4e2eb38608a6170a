// A kernel's key follows what its device code is compiled from, and nothing else: every header it
// reads (through either include form), the defines it can see, never a host-only edit.
#include "driver/identity/kernel_identity.h"
#include "driver/identity/kernel_key.h"
#include "driver/retune/retune.h"
#include "driver/tune/llm_settings.h"
#include "tests/unit/build/build_test_support.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace optiml::identity {
namespace {
namespace fs = std::filesystem;

constexpr const char* kSpec = R"json({
  "name": "scale",
  "source": "scale.cu",
  "arguments": [
    {"name": "n", "type": "int32", "value": 1024},
    {"name": "x", "type": "float32", "pointer": true, "count": "n", "role": "inout"}
  ],
  "launch": {"block": ["block_size_x"], "grid": ["ceil_div(n, block_size_x)"]},
  "parameters": [{"name": "block_size_x", "values": [128, 256], "default": 256}]
})json";

// The saxpy example's shape, with the kernel beside main() and a helper in the project's inc/
// folder, included as <helper_dev.h> (as the CUDA samples include <helper_cuda.h>).
constexpr const char* kKernel = R"(#include <cstdio>
#include <helper_dev.h>
#ifndef block_size_x
#define block_size_x 256
#endif
__global__ void scale(int n, float* x) {
    const int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) x[i] = helper(x[i]);
}
int main() {
    printf("scaled\n");
    return 0;
}
)";

class DeviceKeyTest : public ::testing::Test {
  protected:
    fs::path dir = fs::temp_directory_path() / ("optiml-device-key-" + std::to_string(::getpid()));
    void SetUp() override {
        write("kernels/scale.optiml.json", kSpec);
        write("kernels/scale.cu", kKernel);
        write("inc/helper_dev.h", "__device__ float helper(float a) { return a; }\n");
    }
    void TearDown() override { fs::remove_all(dir); }
    void write(const std::string& relative, const std::string& text) {
        fs::create_directories((dir / relative).parent_path());
        std::ofstream(dir / relative) << text;
    }
    void edit(const std::string& relative, const std::string& from, const std::string& to) {
        std::string text = build::test::read_text(dir / relative);
        text.replace(text.find(from), from.size(), to);
        write(relative, text);
    }
    // The spec as a build whose target adds inc/ (and `options`) compiles it.
    spec::Spec spec(const std::vector<std::string>& options = {}) const {
        spec::Spec loaded = spec::load_spec(dir / "kernels/scale.optiml.json");
        loaded.compiler = "nvrtc";  // the key's compiler choice is not what these tests are about
        loaded.target.options = options;
        loaded.target.include_dirs = {dir / "inc"};
        loaded.target.project_include_dirs = {dir / "inc"};
        loaded.target.key_options = options;
        loaded.target.key_options.push_back("-Iinc");
        return loaded;
    }
    std::string key(const std::vector<std::string>& options = {}) const {
        const spec::Spec s = spec(options);
        return cache::compute_key(identity::key_inputs(s, identity::scan_sources(s), 90));
    }
};

TEST_F(DeviceKeyTest, AHeaderIncludedWithAngleBracketsThroughTheTargetsFolderIsInTheKey) {
    const spec::Spec s = spec();
    const identity::KernelSources sources = identity::scan_sources(s);
    ASSERT_EQ(sources.files.size(), 2u);
    EXPECT_EQ(sources.files[1].relative_path, "../inc/helper_dev.h");
    const std::string before = key();
    edit("inc/helper_dev.h", "return a;", "return 2.0f * a;");
    EXPECT_NE(key(), before);
}

TEST_F(DeviceKeyTest, AHostOnlyEditKeepsTheKeyADeviceEditChangesIt) {
    const std::string before = key();
    edit("kernels/scale.cu", "printf(\"scaled\\n\")", "printf(\"all %d scaled\\n\", 4)");
    EXPECT_EQ(key(), before);
    edit("kernels/scale.cu", "x[i] = helper(x[i])", "x[i] = helper(x[i]) + 1.0f");
    EXPECT_NE(key(), before);
}

TEST_F(DeviceKeyTest, ADefineOrFolderTheDeviceCodeCannotSeeLeavesTheKey) {
    const std::string plain = key();
    EXPECT_EQ(key({"-DNDEBUG"}), plain);
    EXPECT_EQ(key({"-DVERBOSE_HOST=1"}), plain);
    const spec::Spec s = spec({"-DNDEBUG"});
    const identity::DeviceOptions split =
        identity::device_options(s.target.key_options, identity::scan_sources(s).device);
    EXPECT_TRUE(split.kept.empty());
    EXPECT_EQ(split.left_out, (std::vector<std::string>{"-DNDEBUG", "-Iinc"}));
}

TEST_F(DeviceKeyTest, ADefineTheDeviceCodeCanSeeSplitsTheKey) {
    const std::string plain = key();
    edit("inc/helper_dev.h", "return a;",
         "\n#ifdef DOUBLE_IT\n    return 2 * a;\n#endif\n    return a;");
    EXPECT_NE(key({"-DDOUBLE_IT"}), key());
    // An assert reads NDEBUG through <cassert>, which the key does not hash.
    edit("kernels/scale.cu", "if (i < n)", "assert(i >= 0);\n    if (i < n)");
    EXPECT_NE(key({"-DNDEBUG"}), key());
    // Flags that change code generation always stay; so do the toolkit's own macros.
    const std::vector<std::string> codegen = {"-G", "-lineinfo", "--use_fast_math",
                                              "--maxrregcount=32", "-rdc=true"};
    EXPECT_EQ(identity::device_options(codegen, identity::scan_sources(spec()).device).kept,
              codegen);
    EXPECT_NE(key({"-D__CUDA_NO_HALF_OPERATORS__"}), key());
    EXPECT_NE(key({"-DCUB_IGNORE_DEPRECATED_CPP_DIALECT"}), key());
}

// The CUDA samples include <assert.h> and the C++ library's headers beside their kernels: only
// an `assert` the device code makes reads NDEBUG.
TEST_F(DeviceKeyTest, TheCAndCppLibrariesDoNotReadNdebugWithoutADeviceAssert) {
    edit("kernels/scale.cu", "#include <cstdio>",
         "#include <assert.h>\n#include <vector>\n#include <cstdio>\n#include <string.h>\n"
         "#include <optiml/scale.h>");
    edit("kernels/scale.cu", "int main() {", "int main() {\n    assert(sizeof(float) == 4);");
    EXPECT_EQ(key({"-DNDEBUG"}), key());
}

TEST_F(DeviceKeyTest, ALibraryOfTheToolkitMayReadNdebug) {
    edit("kernels/scale.cu", "#include <cstdio>", "#include <cub/block/block_reduce.cuh>");
    const spec::Spec s = spec({"-DNDEBUG"});
    EXPECT_EQ(identity::device_options(s.target.key_options, identity::scan_sources(s).device).kept,
              (std::vector<std::string>{"-DNDEBUG"}));
}

// `optiml build` of the kernel, its target compiled with `flags` (no GPU: the original kernel).
class DeviceKeyBuildTest : public DeviceKeyTest {
  protected:
    void SetUp() override {
        DeviceKeyTest::SetUp();
        setenv("OPTIML_WORKER", OPTIML_FAKE_WORKER, 1);  // no GPU, whatever the machine
        setenv("FAKE_DEVICES", "0", 1);
    }
    void TearDown() override {
        unsetenv("FAKE_DEVICES");
        DeviceKeyTest::TearDown();
    }
    build::BuildOptions build_with(const std::string& flags, std::string* log = nullptr) {
        write("build/compile_commands.json",
              R"([{"directory": ")" + (dir / "build").string() + R"(", "file": ")" +
                  (dir / "kernels/scale.cu").string() +
                  R"(", "command": "/usr/local/cuda/bin/nvcc -I)" + (dir / "inc").string() + " " +
                  flags +
                  R"( -O3 --generate-code=arch=compute_90,code=[compute_90,sm_90] -x cu -c )" +
                  (dir / "kernels/scale.cu").string() + R"( -o scale.o"}])");
        build::BuildOptions options;
        options.spec = dir / "kernels/scale.optiml.json";
        options.out_dir = dir / "build/optiml";
        options.depfile = dir / "build/optiml/scale.d";
        options.cache_dir = dir / "cache";
        options.compile_commands = dir / "build/compile_commands.json";
        options.source_root = dir;
        options.build_root = dir / "build";
        options.manifest = identity::declared_kernels_dir(dir / "build") / "app.scale.json";
        const std::string text = build::test::successful_build(options);
        if (log) *log = text;
        return options;
    }
};

// `optiml build` lists the header in the depfile, so editing it reruns OptiML.
TEST_F(DeviceKeyBuildTest, TheDepfileListsTheHeaderReachedThroughTheTargetsFolder) {
    std::string log;
    const build::BuildOptions options = build_with("-DNDEBUG", &log);
    EXPECT_NE(build::test::read_text(options.depfile).find((dir / "inc/helper_dev.h").string()),
              std::string::npos)
        << build::test::read_text(options.depfile);
    // The build line says which flags the key holds and which cannot change the device code.
    EXPECT_NE(log.find("flags: none (scale.cu); left out of the key, as they cannot change the "
                       "device code: -DNDEBUG"),
              std::string::npos)
        << log;
}

// tune, cache key and profile reproduce the build's key from its folder; retune tunes with the
// build's flags. A define the kernel reads makes the build's key differ from the spec's alone.
TEST_F(DeviceKeyBuildTest, TheBuildFolderReproducesTheKeyTheBuildLookedUp) {
    edit("inc/helper_dev.h", "return a;",
         "\n#ifdef DOUBLE_IT\n    return 2 * a;\n#endif\n    return a;");
    build_with("-DDOUBLE_IT -DNDEBUG");
    const identity::DeclaredKernel declared = identity::read_declared_kernels(dir / "build").at(0);
    ASSERT_EQ(declared.archs.size(), 1u);
    EXPECT_EQ(declared.target.options, (std::vector<std::string>{"-DDOUBLE_IT", "-DNDEBUG"}));

    const identity::ResolvedKernel from_build =
        identity::resolve_kernel(dir / "kernels/scale.optiml.json", dir / "build");
    EXPECT_EQ(cache::compute_key(identity::key_inputs(from_build.spec, from_build.sources, 90)),
              declared.archs[0].key);
    const identity::ResolvedKernel spec_alone =
        identity::resolve_kernel(dir / "kernels/scale.optiml.json", "");
    EXPECT_NE(cache::compute_key(identity::key_inputs(spec_alone.spec, spec_alone.sources, 90)),
              declared.archs[0].key);

    retune::RetuneOptions options;
    options.build_dir = dir / "build";
    std::ostringstream log;
    retune::RetuneReport report;
    EXPECT_EQ(retune::run_retune(options, log, &report), 1) << log.str();  // no GPU: skipped
    ASSERT_EQ(report.rows.size(), 1u);
    EXPECT_EQ(report.rows[0].new_key, declared.archs[0].key) << log.str();
}

// The LLM settings CMake gave the build reach every command that reproduces its key, over the
// command's own environment; a kernel resolved from its spec alone keeps the command's.
TEST(BuildLlmConfig, TheBuildsLlmFlagsGoOverTheCommandsConfiguration) {
    llm::LlmConfig command;
    command.model = "environment-model";
    identity::ResolvedKernel alone;
    EXPECT_EQ(tune::build_llm_config(alone, command).model, "environment-model");
    identity::ResolvedKernel from_build;
    from_build.build = identity::DeclaredKernel{};
    from_build.build->llm_flags["model"] = "cmake-model";
    EXPECT_EQ(tune::build_llm_config(from_build, command).model, "cmake-model");
}

TEST_F(DeviceKeyBuildTest, ABuildFolderThatNeverBuiltTheSpecIsNamedWithTheFix) {
    fs::create_directories(dir / "other/optiml-kernels");
    try {
        identity::resolve_kernel(dir / "kernels/scale.optiml.json", dir / "other");
        FAIL() << "no error";
    } catch (const identity::BuildManifestError& e) {
        EXPECT_NE(std::string(e.what()).find("declared no kernel of"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace optiml::identity
