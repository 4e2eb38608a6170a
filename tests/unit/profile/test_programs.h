// The profile tests' executable doubles as the programs they profile (test_main.cpp picks one by
// its first argument), so the runner is exercised on real processes without other binaries.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "driver/profile/activity/activity_file.h"

namespace optiml::profile::testing {

// Loads the library named by CUDA_INJECTION64_PATH and calls its InitializeInjection(), as the
// CUDA driver does in cuInit(); then exits 0. No GPU is used, so no kernel is recorded.
inline constexpr const char* kActAsCudaDriver = "--act-as-cuda-driver";

// Writes a constructed record set (below) through the library's own writer to the file
// $OPTIML_ACTIVITY_OUTPUT names, as the library does at exit; then exits 0.
inline constexpr const char* kWriteConstructedRecords = "--write-constructed-records";

// This test executable.
std::filesystem::path self();

// Constructed launch records, not recorded from a program. "program": gemm 3 x 500 us, softmax
// 10 x 40 us, relu 5 x 20 us, copy 1 x 50 us on device 0, plus one gemm launch without an end
// time; "other-process": one gemm launch of 500 us on device 1.
activity::ActivityFile constructed_records(const std::string& set);

// The argv that runs this executable as the program that writes `set`.
std::vector<std::string> records_writer(const std::string& set);

}  // namespace optiml::profile::testing
