// Hot-kernel selection for a whole program (`optiml profile -- ./app args`): which kernels hold
// the GPU time, and which few are worth a spec. Input: the CUPTI activity records of the run's
// kernel launches, as plain structs.
//
// Kernels are aggregated by (mangled) name and sorted by total time, largest first (ties: name).
// The hot set is the smallest prefix of that list holding more than `time_share` (80%) of all
// kernel time, capped at `max_hot` (3) kernels: tuning a fourth kernel rarely pays, and when three
// kernels hold less than 80% the time is spread thinly and the report says so (`capped`).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::analysis {

using Dim3 = std::array<std::uint32_t, 3>;

struct KernelActivity {
    std::string name;            // as the driver reports it (mangled for C++ kernels)
    std::string demangled_name;  // "" when not demangled
    std::uint64_t duration_ns = 0;
    Dim3 grid{1, 1, 1};
    Dim3 block{1, 1, 1};
};

struct HotKernelOptions {
    double time_share = 0.80;
    std::size_t max_hot = 3;
    std::string target = "<target>";  // the CMake target named in the suggested line
};

struct KernelTime {
    std::string name;
    std::string demangled_name;
    std::string short_name;  // identifier for the spec file: "saxpy" from "void saxpy<float>(...)"
    std::uint64_t total_ns = 0;
    std::uint64_t launches = 0;
    double share = 0.0;             // of all kernel time
    double cumulative_share = 0.0;  // this kernel and all larger ones
    Dim3 grid{1, 1, 1};             // most frequent launch geometry (first seen on ties)
    Dim3 block{1, 1, 1};
    bool hot = false;
    std::string suggestion;  // optiml_optimize_kernel(<target> SPEC kernels/<short>.optiml.json)
};

struct HotKernelReport {
    std::uint64_t total_ns = 0;
    std::vector<KernelTime> kernels;  // largest first
    std::size_t hot_count = 0;        // the first hot_count kernels are hot
    double hot_share = 0.0;
    bool capped = false;  // max_hot kernels reached without exceeding time_share
};

// Throws AnalysisError for options outside their range (time_share in (0, 1], max_hot >= 1).
HotKernelReport select_hot_kernels(const std::vector<KernelActivity>& launches,
                                   const HotKernelOptions& options = {});

// The kernel's bare identifier, from the demangled name when there is one, else from a simple
// Itanium mangled name (_Z5saxpyif -> saxpy), else the name itself; characters outside
// [A-Za-z0-9_] become '_'.
std::string kernel_short_name(std::string_view name, std::string_view demangled_name);

// A table for people: kernel, GPU time, share, cumulative share, launches, hot, and the lines to
// add to CMakeLists.txt.
std::string to_markdown(const HotKernelReport& report);

}  // namespace optiml::analysis
