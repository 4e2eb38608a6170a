#include "driver/profile/detail/calibration_kernels.h"

namespace optiml::profile {

const std::string& calibration_source() {
    // Each FMA kernel keeps kFmaChains independent accumulators per thread and writes them only
    // when their sum is impossible, so the compiler must compute every FMA but no store costs
    // bandwidth. The bandwidth kernels stream float4 with a grid-stride loop in three mixes
    // (copy, read only, two reads and a write): DRAM sustains different rates for each, and the
    // roof is the best of them, so that no kernel's traffic outruns its ceiling by pattern alone.
    static const std::string source = R"(
#define CHAINS 8
extern "C" __global__ void optiml_calibrate_copy(const float4* __restrict__ in,
                                                 float4* __restrict__ out, unsigned long long n) {
    // Four independent 16-byte loads in flight per thread before any store.
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        const float4 v0 = in[i], v1 = in[i + stride], v2 = in[i + 2 * stride], v3 = in[i + 3 * stride];
        out[i] = v0;
        out[i + stride] = v1;
        out[i + 2 * stride] = v2;
        out[i + 3 * stride] = v3;
    }
    for (; i < n; i += stride) out[i] = in[i];
}
__device__ unsigned bits(float4 v) {
    return __float_as_uint(v.x) ^ __float_as_uint(v.y) ^ __float_as_uint(v.z) ^ __float_as_uint(v.w);
}
extern "C" __global__ void optiml_calibrate_read(const float4* __restrict__ in,
                                                 float4* __restrict__ out, unsigned long long n) {
    // Loads only: the xor of everything read is stored if it is an impossible value.
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    unsigned acc = 0;
    for (; i + 3 * stride < n; i += 4 * stride) {
        const float4 v0 = in[i], v1 = in[i + stride], v2 = in[i + 2 * stride], v3 = in[i + 3 * stride];
        acc ^= bits(v0) ^ bits(v1) ^ bits(v2) ^ bits(v3);
    }
    for (; i < n; i += stride) acc ^= bits(in[i]);
    if (acc == 0x7f3a9c21u) out[0].x = __uint_as_float(acc);
}
extern "C" __global__ void optiml_calibrate_triad(const float4* __restrict__ in,
                                                  float4* __restrict__ out, unsigned long long n) {
    // out += in: two reads and a write per element, the mix of saxpy-like kernels.
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    for (; i + 1 * stride < n; i += 2 * stride) {
        const float4 a0 = in[i], a1 = in[i + stride], b0 = out[i], b1 = out[i + stride];
        out[i] = make_float4(a0.x + b0.x, a0.y + b0.y, a0.z + b0.z, a0.w + b0.w);
        out[i + stride] = make_float4(a1.x + b1.x, a1.y + b1.y, a1.z + b1.z, a1.w + b1.w);
    }
    for (; i < n; i += stride) {
        const float4 a = in[i], b = out[i];
        out[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
}
__device__ float fused(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ double fused(double a, double b, double c) { return __fma_rn(a, b, c); }
template <typename T>
__device__ void fma_chains(T* out, int iterations, float seed, T m, T k) {
    T a[CHAINS];
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) a[c] = T(seed) + T(threadIdx.x) * k + T(c);
#pragma unroll 16
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int c = 0; c < CHAINS; ++c) a[c] = fused(a[c], m, k);
    }
    T sum = 0;
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) sum += a[c];
    if (sum == T(-1)) out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
extern "C" __global__ void optiml_calibrate_fp32(float* out, int iterations, float seed) {
    fma_chains<float>(out, iterations, seed, 0.999999f, 1e-7f);
}
extern "C" __global__ void optiml_calibrate_fp64(double* out, int iterations, float seed) {
    fma_chains<double>(out, iterations, seed, 0.999999, 1e-7);
}
extern "C" __global__ void optiml_calibrate_fp16(unsigned* out, int iterations, float seed) {
    // Packed half2 FMAs through PTX, so no CUDA header is needed at run time.
    unsigned a[CHAINS];
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) a[c] = 0x3c003c00u + c + (unsigned)seed;  // ~1.0 in halves
    const unsigned m = 0x3bfe3bfeu, k = 0x0c000c00u;  // ~0.999 and ~2^-12 in halves
#pragma unroll 16
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int c = 0; c < CHAINS; ++c) asm("fma.rn.f16x2 %0, %0, %1, %2;" : "+r"(a[c]) : "r"(m), "r"(k));
    }
    unsigned sum = 0;
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) sum ^= a[c];
    if (sum == 0xdeadbeefu) out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
)";
    return source;
}

const std::vector<CalibrationKernel>& calibration_kernels() {
    static const std::vector<CalibrationKernel> kernels{
        {"optiml_calibrate_copy", "dram", "copy", 1, 1},
        {"optiml_calibrate_read", "dram", "read", 1, 0},
        {"optiml_calibrate_triad", "dram", "read2_write1", 2, 1},
        {"optiml_calibrate_fp32", "fp32", "", 0, 0},
        {"optiml_calibrate_fp64", "fp64", "", 0, 0},
        {"optiml_calibrate_fp16", "fp16", "", 0, 0},
    };
    return kernels;
}

std::uint64_t bandwidth_bytes(const CalibrationKernel& kernel) {
    return static_cast<std::uint64_t>(kernel.buffers_read + kernel.buffers_written) *
           kCopyElements * 16;
}

double fma_flops(const std::string& precision, int sms) {
    const double threads = static_cast<double>(sms) * kFmaBlocksPerSm * kFmaBlock;
    const double per_fma = precision == "fp16" ? 4.0 : 2.0;  // half2: two FMAs per instruction
    return threads * kFmaIterations * kFmaChains * per_fma;
}

}  // namespace optiml::profile
