// Every spec the repository ships, benchmarks or records spaces with loads, and its original (the
// default configuration) compiles for sm_90 with the compiler a build would pick. A spec whose
// "kernel" names no kernel of its source (convolution_space's did, for days, and cost a device
// call that recorded nothing) fails here, on a machine without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "driver/compile/compile_request.h"
#include "driver/identity/compiler_choice.h"
#include "driver/identity/kernel_compile.h"
#include "driver/spec/spec.h"

namespace optiml::identity {
namespace {
namespace fs = std::filesystem;

// The folders whose specs must stay valid; the deliberately broken ones (planted faults, bad
// calls) and unit-test fixtures live elsewhere.
std::vector<fs::path> committed_specs() {
    const fs::path root(OPTIML_SOURCE_DIR);
    std::vector<fs::path> specs;
    for (const char* folder : {"examples", "tests/data/kernels", "bench"})
        for (const auto& entry : fs::recursive_directory_iterator(root / folder))
            if (entry.is_regular_file() && entry.path().string().ends_with(".optiml.json"))
                specs.push_back(entry.path());
    std::sort(specs.begin(), specs.end());
    return specs;
}

TEST(CommittedSpecs, EachLoadsAndItsOriginalCompiles) {
    const std::vector<fs::path> specs = committed_specs();
    ASSERT_GE(specs.size(), 20u);
    for (const fs::path& file : specs) {
        SCOPED_TRACE(file.string());
        spec::Spec spec;
        try {
            spec = spec::load_spec(file);
        } catch (const std::exception& e) {
            ADD_FAILURE() << e.what();
            continue;
        }
        const compile::CompileResult compiled = compile::compile(
            make_compile_request(spec, spec.default_config(), 90, compile::Output::Cubin));
        EXPECT_TRUE(compiled.ok) << compiled.log;
        EXPECT_FALSE(compiled.lowered_name.empty());
    }
}

}  // namespace
}  // namespace optiml::identity
