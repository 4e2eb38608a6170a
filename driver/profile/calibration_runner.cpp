#include "driver/profile/detail/calibration_runner.h"

#include <algorithm>
#include <stdexcept>

#include <cuda.h>

#include "driver/base/read_file.h"
#include "driver/profile/detail/calibration_kernels.h"

namespace optiml::profile {
namespace {

constexpr int kRuns = 10;

void check(CUresult result, const char* what) {
    if (result == CUDA_SUCCESS) return;
    const char* name = nullptr;
    cuGetErrorName(result, &name);
    throw std::runtime_error(std::string(what) + ": " + (name ? name : "CUDA error"));
}

// Owns what one calibration allocates, so an error anywhere frees it all.
struct Resources {
    CUdevice device = 0;
    CUcontext context = nullptr;
    CUmodule module = nullptr;
    CUevent start = nullptr, stop = nullptr;
    CUdeviceptr in = 0, out = 0;
    ~Resources() {
        if (!context) return;
        if (in) cuMemFree(in);
        if (out) cuMemFree(out);
        if (start) cuEventDestroy(start);
        if (stop) cuEventDestroy(stop);
        if (module) cuModuleUnload(module);
        cuDevicePrimaryCtxRelease(device);
    }
};

// Fastest of kRuns launches, in seconds.
double best_time(Resources& r, CUfunction function, unsigned grid, unsigned block, void** params) {
    float best = 0.0f;
    for (int run = 0; run <= kRuns; ++run) {  // run 0 warms up
        check(cuEventRecord(r.start, nullptr), "cuEventRecord");
        check(cuLaunchKernel(function, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr),
              "cuLaunchKernel");
        check(cuEventRecord(r.stop, nullptr), "cuEventRecord");
        check(cuEventSynchronize(r.stop), "cuEventSynchronize");
        float ms = 0.0f;
        check(cuEventElapsedTime(&ms, r.start, r.stop), "cuEventElapsedTime");
        if (run > 0 && (best == 0.0f || ms < best)) best = ms;
    }
    return best / 1000.0;
}

}  // namespace

Calibration run_calibration(int device, const std::string& image_path) {
    Calibration calibration;
    try {
        Resources r;
        check(cuInit(0), "cuInit");
        check(cuDeviceGet(&r.device, device), "cuDeviceGet");
        check(cuDevicePrimaryCtxRetain(&r.context, r.device), "cuDevicePrimaryCtxRetain");
        check(cuCtxSetCurrent(r.context), "cuCtxSetCurrent");
        char name[256] = {};
        cuDeviceGetName(name, sizeof(name), r.device);
        calibration.device = name;
        int sms = 0;
        check(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, r.device),
              "cuDeviceGetAttribute");
        const std::string image = base::read_file(image_path);
        check(cuModuleLoadData(&r.module, image.data()), "cuModuleLoadData");
        check(cuEventCreate(&r.start, CU_EVENT_DEFAULT), "cuEventCreate");
        check(cuEventCreate(&r.stop, CU_EVENT_DEFAULT), "cuEventCreate");

        const std::size_t bytes = kCopyElements * 16;
        check(cuMemAlloc(&r.in, bytes), "cuMemAlloc");
        check(cuMemAlloc(&r.out, bytes), "cuMemAlloc");
        check(cuMemsetD32(r.in, 0x3f800000u, bytes / 4), "cuMemsetD32");
        for (const auto& kernel : calibration_kernels()) {
            CUfunction function = nullptr;
            check(cuModuleGetFunction(&function, r.module, kernel.symbol.c_str()),
                  "cuModuleGetFunction");
            if (kernel.precision == "dram") {
                unsigned long long n = kCopyElements;
                void* params[] = {&r.in, &r.out, &n};
                const double seconds =
                    best_time(r, function, static_cast<unsigned>(sms) * 8, 512, params);
                const double rate = static_cast<double>(bandwidth_bytes(kernel)) / seconds;
                calibration.dram_by_pattern[kernel.pattern] = rate;
                calibration.dram_bytes_per_s = std::max(calibration.dram_bytes_per_s, rate);
            } else {
                int iterations = kFmaIterations;
                float seed = 1.0f;
                void* params[] = {&r.out, &iterations, &seed};
                const double seconds = best_time(
                    r, function, static_cast<unsigned>(sms) * kFmaBlocksPerSm, kFmaBlock, params);
                calibration.flops_per_s[kernel.precision] =
                    fma_flops(kernel.precision, sms) / seconds;
            }
        }
        calibration.ok = true;
    } catch (const std::exception& e) {
        calibration.message = e.what();
    }
    return calibration;
}

}  // namespace optiml::profile
