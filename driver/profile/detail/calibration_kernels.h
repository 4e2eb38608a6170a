// OptiML's own calibration kernels: they measure the ceilings the roofline is drawn against
// (sustained DRAM bandwidth, FMA rate per precision) on the GPU at hand, instead of trusting
// datasheet numbers that assume boost clocks the card may not hold.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace optiml::profile {

// CUDA C++ for NVRTC; every kernel is extern "C" so its symbol is its name.
const std::string& calibration_source();

struct CalibrationKernel {
    std::string symbol;
    std::string precision;  // "dram" for a bandwidth kernel, else "fp32", "fp64", "fp16"
    std::string pattern;    // bandwidth kernels: "copy", "read", "read2_write1"
    int buffers_read = 0;   // bandwidth kernels: whole kCopyElements float4 buffers per launch
    int buffers_written = 0;
};

const std::vector<CalibrationKernel>& calibration_kernels();

// Sizes shared by the worker's runner and the arithmetic below.
inline constexpr std::uint64_t kCopyElements = std::uint64_t{1} << 25;  // float4: 512 MiB a buffer
inline constexpr int kFmaIterations = 16384;
inline constexpr int kFmaChains = 8;  // independent FMA chains per thread (hides latency)
inline constexpr unsigned kFmaBlock = 256;
inline constexpr unsigned kFmaBlocksPerSm = 8;

// Bytes one launch of a bandwidth kernel moves (reads + writes).
std::uint64_t bandwidth_bytes(const CalibrationKernel& kernel);
// FLOPs of one launch of an FMA kernel on `sms` SMs (an FMA counts 2; fp16 works on half2).
double fma_flops(const std::string& precision, int sms);

}  // namespace optiml::profile
