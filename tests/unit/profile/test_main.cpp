// main() of the profile tests; with one of the flags of test_programs.h it is a profiled program
// instead.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <gtest/gtest.h>

#include "driver/base/atomic_write.h"
#include "tests/unit/profile/test_programs.h"

namespace optiml::profile::testing {

namespace {

int act_as_cuda_driver() {
    const char* library = std::getenv("CUDA_INJECTION64_PATH");
    if (library == nullptr) return 3;
    void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        std::fprintf(stderr, "dlopen: %s\n", dlerror());
        return 4;
    }
    using Entry = int (*)();
    const auto initialize = reinterpret_cast<Entry>(dlsym(handle, "InitializeInjection"));
    if (initialize == nullptr) return 5;
    return initialize() == 1 ? 0 : 6;
}

int write_constructed_records(const char* set) {
    const char* output = std::getenv(activity::kOutputVariable);
    if (output == nullptr) return 3;
    activity::ActivityFile file = constructed_records(set);
    file.pid = static_cast<long>(getpid());
    if (const std::string error = base::try_write_file_atomically(
            activity::expand_pid(output, file.pid), activity::to_json_text(file));
        !error.empty()) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 4;
    }
    return 0;
}

}  // namespace

std::filesystem::path self() {
    return std::filesystem::read_symlink("/proc/self/exe");
}

std::vector<std::string> records_writer(const std::string& set) {
    return {self().string(), kWriteConstructedRecords, set};
}

activity::ActivityFile constructed_records(const std::string& set) {
    activity::ActivityFile file;
    std::uint64_t clock = 1'000'000;
    auto launch = [&](const std::string& name, std::uint64_t ns, int times,
                      std::array<std::uint32_t, 3> grid, std::array<std::uint32_t, 3> block,
                      std::uint32_t device) {
        for (int i = 0; i < times; ++i) {
            file.launches.push_back(
                {name, activity::demangle(name), clock, clock + ns, grid, block, device});
            clock += ns + 1'000;
        }
    };
    if (set == "program") {
        launch("_ZN2nn7softmaxIfLi128EEEvPKfPfi", 40'000, 10, {128, 1, 1}, {128, 1, 1}, 0);
        launch("_Z4gemmPKfS0_Pfi", 500'000, 3, {64, 64, 1}, {16, 16, 1}, 0);
        launch("relu_kernel", 20'000, 5, {1024, 1, 1}, {256, 1, 1}, 0);
        launch("_Z4copyPKfPfi", 50'000, 1, {512, 1, 1}, {256, 1, 1}, 0);
        file.launches.push_back({"_Z4gemmPKfS0_Pfi",
                                 activity::demangle("_Z4gemmPKfS0_Pfi"),
                                 clock,
                                 0,
                                 {64, 64, 1},
                                 {16, 16, 1},
                                 0});
    } else if (set == "other-process") {
        launch("_Z4gemmPKfS0_Pfi", 500'000, 1, {64, 64, 1}, {16, 16, 1}, 1);
    }
    return file;
}

}  // namespace optiml::profile::testing

int main(int argc, char** argv) {
    using namespace optiml::profile::testing;
    if (argc >= 2 && std::string_view(argv[1]) == kActAsCudaDriver) return act_as_cuda_driver();
    if (argc >= 3 && std::string_view(argv[1]) == kWriteConstructedRecords) {
        return write_constructed_records(argv[2]);
    }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
