#include "driver/measure/gpu_session.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <cuda.h>

#include "driver/compile/read_file.h"
#include "driver/measure/fill.h"

namespace optiml::measure {
namespace {

std::string error_text(CUresult result) {
    const char* name = nullptr;
    const char* text = nullptr;
    cuGetErrorName(result, &name);
    cuGetErrorString(result, &text);
    return std::string(name ? name : "CUDA_ERROR") + ": " + (text ? text : "unknown error");
}

void check(CUresult result, const char* what) {
    if (result != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + ": " + error_text(result));
}

// Errors after which the context is unusable: the worker must exit.
bool is_sticky(CUresult result) {
    switch (result) {
        case CUDA_ERROR_ILLEGAL_ADDRESS:
        case CUDA_ERROR_LAUNCH_FAILED:
        case CUDA_ERROR_ILLEGAL_INSTRUCTION:
        case CUDA_ERROR_MISALIGNED_ADDRESS:
        case CUDA_ERROR_INVALID_ADDRESS_SPACE:
        case CUDA_ERROR_INVALID_PC:
        case CUDA_ERROR_HARDWARE_STACK_ERROR:
        case CUDA_ERROR_ASSERT:
        case CUDA_ERROR_LAUNCH_TIMEOUT:
        case CUDA_ERROR_ECC_UNCORRECTABLE:
        case CUDA_ERROR_UNKNOWN:
            return true;
        default:
            return false;
    }
}

Measurement failed(std::string status, std::string message, bool fatal = false) {
    Measurement m;
    m.status = std::move(status);
    m.message = std::move(message);
    m.fatal = fatal;
    return m;
}

struct DeviceBuffer {
    CUdeviceptr ptr = 0;
    std::size_t bytes = 0;
};

struct LoadedKernel {
    CUmodule module = nullptr;
    CUfunction function = nullptr;
    ~LoadedKernel() {
        if (module) cuModuleUnload(module);
    }
};

}  // namespace

nlohmann::json probe_devices() {
    nlohmann::json devices = nlohmann::json::array();
    if (cuInit(0) != CUDA_SUCCESS) return {{"ok", true}, {"devices", devices}};
    int count = 0;
    cuDeviceGetCount(&count);
    int driver = 0;
    cuDriverGetVersion(&driver);
    for (int i = 0; i < count; ++i) {
        CUdevice device;
        if (cuDeviceGet(&device, i) != CUDA_SUCCESS) continue;
        char name[256] = {};
        cuDeviceGetName(name, sizeof(name), device);
        int major = 0, minor = 0, sms = 0, l2 = 0;
        cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
        cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
        cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
        cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device);
        devices.push_back({{"index", i},
                           {"name", name},
                           {"arch", major * 10 + minor},
                           {"sms", sms},
                           {"l2_bytes", l2},
                           {"driver", driver}});
    }
    return {{"ok", true}, {"devices", devices}};
}

struct GpuSession::State {
    Problem problem;
    CUdevice device = 0;
    CUcontext context = nullptr;
    CUstream stream = nullptr;
    CUevent start = nullptr;
    CUevent stop = nullptr;
    std::vector<DeviceBuffer> buffers;          // one per argument (unused for scalars)
    std::vector<std::string> pristine;          // host copy of each pointer's initial contents
    std::vector<DeviceBuffer> pristine_device;  // the same on the device: restores cost a D2D copy
    std::vector<std::string> scalars;           // bytes of each scalar argument
    std::vector<std::string> reference;         // original kernel's outputs (outputs and inouts)
    std::vector<std::string> constant_values;   // host bytes of each __constant__ symbol
    DeviceBuffer flush;                         // twice the L2 size

    ~State() {
        if (!context) return;
        cuCtxSetCurrent(context);
        for (auto& b : buffers)
            if (b.ptr) cuMemFree(b.ptr);
        for (auto& b : pristine_device)
            if (b.ptr) cuMemFree(b.ptr);
        if (flush.ptr) cuMemFree(flush.ptr);
        if (start) cuEventDestroy(start);
        if (stop) cuEventDestroy(stop);
        if (stream) cuStreamDestroy(stream);
        cuDevicePrimaryCtxRelease(device);
    }

    bool writes(std::size_t i) const {
        const auto& a = problem.arguments[i];
        return a.is_pointer && a.role != spec::Role::Input;
    }

    // Inputs and inouts back to their initial contents; outputs poisoned with 0xFF bytes (NaN for
    // floats), so an element the kernel never writes cannot match the reference.
    CUresult reset_buffers() {
        for (std::size_t i = 0; i < buffers.size(); ++i) {
            const auto& a = problem.arguments[i];
            if (!a.is_pointer) continue;
            CUresult r = a.role == spec::Role::Output
                             ? cuMemsetD8Async(buffers[i].ptr, 0xFF, buffers[i].bytes, stream)
                             : cuMemcpyDtoDAsync(buffers[i].ptr, pristine_device[i].ptr,
                                                 buffers[i].bytes, stream);
            if (r != CUDA_SUCCESS) return r;
        }
        return CUDA_SUCCESS;
    }

    // Inouts are restored before each timed run so every run sees the real input.
    CUresult restore_inouts() {
        for (std::size_t i = 0; i < buffers.size(); ++i) {
            if (problem.arguments[i].role != spec::Role::InOut) continue;
            CUresult r = cuMemcpyDtoDAsync(buffers[i].ptr, pristine_device[i].ptr, buffers[i].bytes, stream);
            if (r != CUDA_SUCCESS) return r;
        }
        return CUDA_SUCCESS;
    }

    CUresult load(const LaunchSpec& launch, LoadedKernel& kernel, std::string& why) {
        const std::string image = compile::read_file(launch.image_path);
        if (image.empty()) {
            why = "cannot read " + launch.image_path;
            return CUDA_ERROR_FILE_NOT_FOUND;
        }
        CUresult r = cuModuleLoadData(&kernel.module, image.data());
        if (r == CUDA_SUCCESS) r = cuModuleGetFunction(&kernel.function, kernel.module, launch.symbol.c_str());
        if (r == CUDA_SUCCESS && launch.shared_memory_bytes > 48 * 1024)
            r = cuFuncSetAttribute(kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   static_cast<int>(launch.shared_memory_bytes));
        for (std::size_t c = 0; r == CUDA_SUCCESS && c < problem.constants.size(); ++c) {
            CUdeviceptr symbol = 0;
            std::size_t bytes = 0;
            r = cuModuleGetGlobal(&symbol, &bytes, kernel.module, problem.constants[c].name.c_str());
            if (r != CUDA_SUCCESS) {
                why = "__constant__ symbol '" + problem.constants[c].name + "' not found";
                break;
            }
            r = cuMemcpyHtoD(symbol, constant_values[c].data(),
                             std::min(bytes, constant_values[c].size()));
        }
        if (r != CUDA_SUCCESS && why.empty()) why = error_text(r);
        return r;
    }

    CUresult launch_once(const LaunchSpec& launch, CUfunction function) {
        std::vector<void*> params;
        for (std::size_t i = 0; i < buffers.size(); ++i)
            params.push_back(problem.arguments[i].is_pointer ? static_cast<void*>(&buffers[i].ptr)
                                                             : static_cast<void*>(scalars[i].data()));
        return cuLaunchKernel(function, launch.grid[0], launch.grid[1], launch.grid[2],
                              launch.block[0], launch.block[1], launch.block[2],
                              launch.shared_memory_bytes, stream, params.data(), nullptr);
    }

    // Runs once on freshly reset buffers and copies back every buffer the kernel may write.
    CUresult run_and_read(const LaunchSpec& launch, CUfunction function,
                          std::vector<std::string>& outputs) {
        CUresult r = reset_buffers();
        if (r == CUDA_SUCCESS) r = launch_once(launch, function);
        if (r == CUDA_SUCCESS) r = cuStreamSynchronize(stream);
        outputs.assign(buffers.size(), {});
        for (std::size_t i = 0; r == CUDA_SUCCESS && i < buffers.size(); ++i) {
            if (!problem.arguments[i].is_pointer) continue;
            outputs[i].resize(buffers[i].bytes);
            r = cuMemcpyDtoH(outputs[i].data(), buffers[i].ptr, buffers[i].bytes);
        }
        return r;
    }

    Measurement launch_failure(CUresult r, const char* when) {
        return failed("launch_error", std::string(when) + ": " + error_text(r), is_sticky(r));
    }
};

GpuSession::GpuSession(int device, Problem problem) : state_(std::make_unique<State>()) {
    State& s = *state_;
    s.problem = std::move(problem);
    check(cuInit(0), "cuInit");
    check(cuDeviceGet(&s.device, device), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&s.context, s.device), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(s.context), "cuCtxSetCurrent");
    check(cuStreamCreate(&s.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    check(cuEventCreate(&s.start, CU_EVENT_DEFAULT), "cuEventCreate");
    check(cuEventCreate(&s.stop, CU_EVENT_DEFAULT), "cuEventCreate");

    const auto& arguments = s.problem.arguments;
    s.buffers.resize(arguments.size());
    s.pristine.resize(arguments.size());
    s.pristine_device.resize(arguments.size());
    s.scalars.resize(arguments.size());
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const auto& a = arguments[i];
        if (!a.is_pointer) {
            s.scalars[i] = scalar_bytes(a.type, a.value);
            continue;
        }
        s.buffers[i].bytes = std::max<std::size_t>(1, a.count * spec::size_of(a.type));
        check(cuMemAlloc(&s.buffers[i].ptr, s.buffers[i].bytes), "cuMemAlloc");
        if (a.role == spec::Role::Output) continue;
        s.pristine[i] = make_filled_buffer(a.type, a.fill, a.count);
        s.pristine_device[i].bytes = s.buffers[i].bytes;
        check(cuMemAlloc(&s.pristine_device[i].ptr, s.pristine_device[i].bytes), "cuMemAlloc");
        check(cuMemcpyHtoD(s.pristine_device[i].ptr, s.pristine[i].data(), s.pristine[i].size()),
              "cuMemcpyHtoD");
    }
    for (const auto& c : s.problem.constants)
        s.constant_values.push_back(make_filled_buffer(c.type, c.fill, c.count));

    int l2 = 0;
    cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, s.device);
    s.flush.bytes = 2 * static_cast<std::size_t>(std::max(l2, 1 << 20));
    check(cuMemAlloc(&s.flush.ptr, s.flush.bytes), "cuMemAlloc");
}

GpuSession::~GpuSession() = default;

Measurement GpuSession::run_reference(const LaunchSpec& launch) {
    State& s = *state_;
    LoadedKernel kernel;
    std::string why;
    if (CUresult r = s.load(launch, kernel, why); r != CUDA_SUCCESS)
        return failed("load_error", why, is_sticky(r));
    if (CUresult r = s.run_and_read(launch, kernel.function, s.reference); r != CUDA_SUCCESS)
        return s.launch_failure(r, "original kernel");
    Measurement m;
    m.ok = true;
    m.status = "ok";
    return m;
}

Measurement GpuSession::evaluate(const LaunchSpec& launch, const TimingSpec& timing) {
    State& s = *state_;
    if (s.reference.empty()) return failed("error", "no reference: send \"reference\" first");
    LoadedKernel kernel;
    std::string why;
    if (CUresult r = s.load(launch, kernel, why); r != CUDA_SUCCESS)
        return failed("load_error", why, is_sticky(r));

    // Correctness first: a wrong kernel is never timed.
    std::vector<std::string> outputs;
    if (CUresult r = s.run_and_read(launch, kernel.function, outputs); r != CUDA_SUCCESS)
        return s.launch_failure(r, "verification run");
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const auto& a = s.problem.arguments[i];
        if (!a.is_pointer) continue;
        if (!s.writes(i)) {
            if (outputs[i] != s.pristine[i])
                return failed("mismatch", a.name + ": a read-only input was modified");
            continue;
        }
        Comparison c = compare_buffers(a.type, outputs[i].data(), s.reference[i].data(), a.count,
                                       s.problem.tolerance);
        if (c.mismatches > 0)
            return failed("mismatch", describe(a.name, c, a.count, s.problem.tolerance));
    }

    for (int w = 0; w < timing.warmup; ++w) {
        CUresult r = s.restore_inouts();
        if (r == CUDA_SUCCESS) r = s.launch_once(launch, kernel.function);
        if (r != CUDA_SUCCESS) return s.launch_failure(r, "warm-up");
    }

    std::vector<double> times;
    double total = 0.0;
    while (static_cast<int>(times.size()) < timing.max_runs &&
           (static_cast<int>(times.size()) < timing.min_runs || total < timing.target_ms)) {
        CUresult r = s.restore_inouts();
        if (r == CUDA_SUCCESS && timing.flush_l2)
            r = cuMemsetD32Async(s.flush.ptr, static_cast<unsigned>(times.size()), s.flush.bytes / 4,
                                 s.stream);
        if (r == CUDA_SUCCESS) r = cuEventRecord(s.start, s.stream);
        if (r == CUDA_SUCCESS) r = s.launch_once(launch, kernel.function);
        if (r == CUDA_SUCCESS) r = cuEventRecord(s.stop, s.stream);
        if (r == CUDA_SUCCESS) r = cuEventSynchronize(s.stop);
        float ms = 0.0f;
        if (r == CUDA_SUCCESS) r = cuEventElapsedTime(&ms, s.start, s.stop);
        if (r != CUDA_SUCCESS) return s.launch_failure(r, "timed run");
        times.push_back(ms);
        total += ms;
    }
    std::sort(times.begin(), times.end());
    Measurement m;
    m.ok = true;
    m.status = "ok";
    m.runs = static_cast<int>(times.size());
    m.min_ms = times.front();
    m.max_ms = times.back();
    const std::size_t mid = times.size() / 2;
    m.median_ms = times.size() % 2 ? times[mid] : 0.5 * (times[mid - 1] + times[mid]);
    return m;
}

}  // namespace optiml::measure
