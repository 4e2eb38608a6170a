#include "driver/profile/activity/launch_capture.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "driver/base/atomic_write.h"
#include "driver/profile/activity/activity_file.h"
#include "driver/profile/activity/capture_file.h"
#include "driver/profile/activity/cupti_text.h"

namespace optiml::profile::activity {
namespace {

constexpr std::size_t kMaxParameters = 4096;  // far above what a kernel's 32 KiB of params allow

// The driver functions used, looked up in the libcuda.so.1 the program has loaded: linking it
// would keep the library from loading where no driver is installed (the driver's tests load it).
struct Driver {
    decltype(&::cuGetErrorString) get_error_string = nullptr;
    decltype(&::cuFuncGetName) func_get_name = nullptr;
    decltype(&::cuFuncGetParamInfo) func_get_param_info = nullptr;
    decltype(&::cuKernelGetParamInfo) kernel_get_param_info = nullptr;
    decltype(&::cuMemGetAddressRange) mem_get_address_range = nullptr;
    decltype(&::cuMemcpyDtoH) memcpy_dtoh = nullptr;
    decltype(&::cuCtxSynchronize) ctx_synchronize = nullptr;
    decltype(&::cuStreamIsCapturing) stream_is_capturing = nullptr;
};

Driver driver;  // set once by start_capture(), before any callback

template <typename F>
bool look_up(void* library, const char* name, F& function, std::string& missing) {
    function = reinterpret_cast<F>(dlsym(library, name));
    if (function == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(name);
    return function != nullptr;
}

// "" when every function was found, else why not.
std::string load_driver() {
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (library == nullptr) return "the CUDA driver (libcuda.so.1) is not loaded in this process";
    std::string missing;
    look_up(library, "cuGetErrorString", driver.get_error_string, missing);
    look_up(library, "cuFuncGetName", driver.func_get_name, missing);
    look_up(library, "cuFuncGetParamInfo", driver.func_get_param_info, missing);
    look_up(library, "cuKernelGetParamInfo", driver.kernel_get_param_info, missing);
    look_up(library, "cuMemGetAddressRange_v2", driver.mem_get_address_range, missing);
    look_up(library, "cuMemcpyDtoH_v2", driver.memcpy_dtoh, missing);
    look_up(library, "cuCtxSynchronize", driver.ctx_synchronize, missing);
    look_up(library, "cuStreamIsCapturing", driver.stream_is_capturing, missing);
    if (missing.empty()) return "";
    return "the CUDA driver lacks " + missing +
           " (cuFuncGetParamInfo needs a driver of CUDA 12.4 or newer); update the driver";
}

struct CaptureState {
    std::mutex mutex;
    std::string output_path;
    std::string snapshot_folder;  // "" when no snapshots are taken
    std::uint64_t snapshot_limit = kDefaultSnapshotLimit;
    long pid = 0;
    CaptureFile file;
    std::set<std::string> captured;  // kernels whose first launch is recorded
    // Each kernel's parameter layout, read at its first launch, for the shapes of the others.
    std::map<std::string, ParameterLayout> layouts;
};

// Never destroyed, like the activity recorder: callbacks and the exit handler may outlive statics.
CaptureState& state() {
    static CaptureState* const instance = new CaptureState;
    return *instance;
}

// One launch as the driver was asked for it, whichever entry point was used.
struct LaunchCall {
    CUfunction function = nullptr;
    std::array<std::uint32_t, 3> grid{1, 1, 1};
    std::array<std::uint32_t, 3> block{1, 1, 1};
    std::uint64_t shared_memory_bytes = 0;
    CUstream stream = nullptr;
    void** kernel_params = nullptr;
    void** extra = nullptr;
};

template <typename Params>
LaunchCall classic_call(const void* raw) {
    const auto* p = static_cast<const Params*>(raw);
    return {p->f,
            {p->gridDimX, p->gridDimY, p->gridDimZ},
            {p->blockDimX, p->blockDimY, p->blockDimZ},
            p->sharedMemBytes,
            p->hStream,
            p->kernelParams,
            p->extra};
}

template <typename Params>
LaunchCall extended_call(const void* raw) {
    const auto* p = static_cast<const Params*>(raw);
    LaunchCall call;
    call.function = p->f;
    call.kernel_params = p->kernelParams;
    call.extra = p->extra;
    if (p->config != nullptr) {
        const CUlaunchConfig& c = *p->config;
        call.grid = {c.gridDimX, c.gridDimY, c.gridDimZ};
        call.block = {c.blockDimX, c.blockDimY, c.blockDimZ};
        call.shared_memory_bytes = c.sharedMemBytes;
        call.stream = c.hStream;
    }
    return call;
}

std::string driver_error(const char* call, CUresult result) {
    const char* text = nullptr;
    if (driver.get_error_string(result, &text) != CUDA_SUCCESS || text == nullptr) text = "unknown";
    return std::string(call) + " failed: " + text + " (" + std::to_string(result) + ")";
}

// The packed parameter buffer of a launch that passes CU_LAUNCH_PARAM_BUFFER_POINTER in `extra`.
const char* extra_buffer(void** extra) {
    for (std::size_t i = 0; extra != nullptr && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            return static_cast<const char*>(extra[i + 1]);
    }
    return nullptr;
}

std::uint64_t snapshot_limit() {
    const char* text = std::getenv(kSnapshotLimitVariable);
    if (text == nullptr || *text == '\0') return kDefaultSnapshotLimit;
    return std::strtoull(text, nullptr, 10);
}

// Copies the bytes from the pointer to the allocation's end into a file of the snapshot folder.
void take_snapshot(CaptureState& s, std::size_t launch_index, std::size_t parameter_index,
                   CUdeviceptr pointer, CapturedParameter& parameter, std::string& error) {
    const std::uint64_t bytes = parameter.allocation->bytes_from_pointer();
    if (bytes == 0 || bytes > s.snapshot_limit) return;
    std::string data(bytes, '\0');
    if (const CUresult copied = driver.memcpy_dtoh(data.data(), pointer, bytes);
        copied != CUDA_SUCCESS) {
        error += (error.empty() ? "" : "; ") + driver_error("cuMemcpyDtoH", copied);
        return;
    }
    const std::string path = s.snapshot_folder + "/snapshot-" + std::to_string(s.pid) + "-" +
                             std::to_string(launch_index) + "-" + std::to_string(parameter_index) +
                             ".bin";
    if (const std::string write_error = base::try_write_file_atomically(path, data);
        write_error.empty()) {
        parameter.snapshot = path;
    } else {
        error += (error.empty() ? "" : "; ") + write_error;
    }
}

// From the driver: a CUfunction's layout, or a CUkernel's (the runtime launches context-less
// kernel handles through cuLaunchKernel too).
ParameterLayout driver_layout(CUfunction function) {
    ParameterLayout layout;
    std::size_t probe = 0;
    const bool is_kernel_handle =
        driver.func_get_param_info(function, 0, &probe, nullptr) != CUDA_SUCCESS &&
        driver.kernel_get_param_info(reinterpret_cast<CUkernel>(function), 0, &probe, nullptr) ==
            CUDA_SUCCESS;
    for (std::size_t i = 0; i < kMaxParameters; ++i) {
        std::size_t offset = 0;
        std::size_t size = 0;
        const CUresult info = is_kernel_handle
                                  ? driver.kernel_get_param_info(
                                        reinterpret_cast<CUkernel>(function), i, &offset, &size)
                                  : driver.func_get_param_info(function, i, &offset, &size);
        if (info == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter (or none at all)
        if (info != CUDA_SUCCESS) {
            layout.error = driver_error("cuFuncGetParamInfo", info);
            break;
        }
        layout.parameters.emplace_back(offset, size);
    }
    return layout;
}

// No snapshots for this launch (not a kernel's first).
constexpr std::size_t kNoSnapshots = static_cast<std::size_t>(-1);

// Reads the launch's parameters by `layout` into `launch` (which of them point into device
// memory, and where), with snapshots of their allocations for the launch numbered
// `launch_index` when they are asked for.
void read_parameters(const LaunchCall& call, const ParameterLayout& layout,
                     std::size_t launch_index, CapturedLaunch& launch) {
    CaptureState& s = state();
    const char* packed = call.kernel_params == nullptr ? extra_buffer(call.extra) : nullptr;
    bool synchronized = false;
    for (std::size_t i = 0; i < layout.parameters.size(); ++i) {
        const auto [offset, size] = layout.parameters[i];
        const char* value = call.kernel_params != nullptr
                                ? static_cast<const char*>(call.kernel_params[i])
                            : packed != nullptr ? packed + offset
                                                : nullptr;
        if (value == nullptr) {
            launch.error = "the launch passes its parameters in a form OptiML cannot read";
            break;
        }
        CapturedParameter parameter;
        parameter.offset = offset;
        parameter.size = size;
        parameter.bytes.assign(value, size);
        if (size == sizeof(CUdeviceptr)) {
            CUdeviceptr pointer = 0;
            std::memcpy(&pointer, value, sizeof(pointer));
            CUdeviceptr base = 0;
            std::size_t allocation_size = 0;
            if (pointer != 0 &&
                driver.mem_get_address_range(&base, &allocation_size, pointer) == CUDA_SUCCESS) {
                parameter.allocation = DeviceAllocation{pointer - base, allocation_size};
                if (launch_index != kNoSnapshots && !s.snapshot_folder.empty()) {
                    // The data the kernel will read: everything queued before it has finished.
                    if (!synchronized) {
                        if (const CUresult done = driver.ctx_synchronize(); done != CUDA_SUCCESS) {
                            launch.snapshot_error = driver_error("cuCtxSynchronize", done);
                        }
                        synchronized = true;
                    }
                    if (launch.snapshot_error.empty()) {
                        take_snapshot(s, launch_index, i, pointer, parameter,
                                      launch.snapshot_error);
                    }
                }
            }
        }
        launch.parameters.push_back(std::move(parameter));
    }
}

void capture(const LaunchCall& call, const char* symbol_name) {
    CaptureState& s = state();
    const char* name = symbol_name;
    if (name == nullptr && call.function != nullptr &&
        driver.func_get_name(&name, call.function) != CUDA_SUCCESS)
        name = nullptr;
    if (name == nullptr) name = "<unnamed kernel>";
    // A launch into a stream being captured into a graph does not run now: not a real launch.
    CUstreamCaptureStatus capturing = CU_STREAM_CAPTURE_STATUS_NONE;
    if (driver.stream_is_capturing(call.stream, &capturing) == CUDA_SUCCESS &&
        capturing != CU_STREAM_CAPTURE_STATUS_NONE)
        return;
    // The first launch of a kernel is captured whole (snapshots too); each later one only for
    // its shape, with the layout the first one read.
    std::size_t launch_index = 0;
    bool first = false;
    ParameterLayout layout;
    {
        const std::lock_guard lock(s.mutex);
        first = s.captured.insert(name).second;
        if (first) launch_index = s.captured.size() - 1;
        const auto known = s.layouts.find(name);
        if (!first && known == s.layouts.end()) return;  // its first is still being read
        if (!first) layout = known->second;
    }
    CapturedLaunch launch;
    launch.name = name;
    launch.grid = call.grid;
    launch.block = call.block;
    launch.shared_memory_bytes = call.shared_memory_bytes;
    if (first) {
        launch.demangled_name = demangle(launch.name);
        layout = call.function != nullptr ? driver_layout(call.function)
                                          : signature_layout(launch.demangled_name);
    }
    launch.error = layout.error;
    read_parameters(call, layout, first ? launch_index : kNoSnapshots, launch);
    if (!first && launch.error != layout.error) return;  // its values could not be read
    const std::lock_guard lock(s.mutex);
    if (first) {
        s.layouts.emplace(launch.name, layout);
        launch.shapes.push_back(shape_of(launch));
        s.file.launches.push_back(std::move(launch));
        return;
    }
    for (CapturedLaunch& captured : s.file.launches)
        if (captured.name == launch.name) {
            count_shape(captured, shape_of(launch));
            return;
        }
}

// The runtime's launch entry points, as CUPTI passes their arguments. __cudaLaunchKernel (what
// nvcc 13 compiles `<<<>>>` into) has no parameter struct in CUPTI's headers; its declaration
// (crt/device_functions.h) gives this layout.
struct RuntimeKernelLaunchParams {
    cudaKernel_t kernel;
    dim3 gridDim;
    dim3 blockDim;
    void** args;
    std::size_t sharedMem;
    cudaStream_t stream;
};

LaunchCall runtime_call(CUpti_CallbackId id, const void* raw) {
    LaunchCall call;
    const auto set = [&call](const dim3& grid, const dim3& block, std::size_t shared,
                             cudaStream_t stream, void** args) {
        call.grid = {grid.x, grid.y, grid.z};
        call.block = {block.x, block.y, block.z};
        call.shared_memory_bytes = shared;
        call.stream = reinterpret_cast<CUstream>(stream);
        call.kernel_params = args;
    };
    switch (id) {
        case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
        case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000: {
            const auto* p = static_cast<const RuntimeKernelLaunchParams*>(raw);
            set(p->gridDim, p->blockDim, p->sharedMem, p->stream, p->args);
            call.function = reinterpret_cast<CUfunction>(p->kernel);  // a CUkernel
            break;
        }
        case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
        case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000: {
            const auto* p = static_cast<const cudaLaunchKernel_v7000_params*>(raw);
            set(p->gridDim, p->blockDim, p->sharedMem, p->stream, p->args);
            break;  // a host stub: no driver handle, the layout comes from the signature
        }
        default: {  // cudaLaunchKernelExC and its per-thread-stream form
            const auto* p = static_cast<const cudaLaunchKernelExC_v11060_params*>(raw);
            if (p->config != nullptr)
                set(p->config->gridDim, p->config->blockDim, p->config->dynamicSmemBytes,
                    p->config->stream, p->args);
            break;
        }
    }
    return call;
}

// Runtime launch calls in progress on this thread (one entry point may call another, and the
// runtime may launch through the driver's). The outermost captures the launch, at its entry, while
// the data its pointers point to is still what the kernel will read; the calls inside it are not
// captured again.
thread_local int runtime_launch_depth = 0;

void on_runtime_call(CUpti_CallbackId id, const CUpti_CallbackData& info) {
    if (info.callbackSite == CUPTI_API_EXIT) {
        --runtime_launch_depth;
        return;
    }
    if (runtime_launch_depth++ == 0)
        capture(runtime_call(id, info.functionParams), info.symbolName);
}

void CUPTIAPI on_api_call(void* /*userdata*/, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                          const void* data) {
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        on_runtime_call(id, *info);
        return;
    }
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || info->callbackSite != CUPTI_API_ENTER) return;
    if (runtime_launch_depth > 0) return;  // the runtime's callback captured it
    switch (id) {
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
            capture(classic_call<cuLaunchKernel_params>(info->functionParams), info->symbolName);
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
            capture(classic_call<cuLaunchKernel_ptsz_params>(info->functionParams),
                    info->symbolName);
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
            capture(extended_call<cuLaunchKernelEx_params>(info->functionParams), info->symbolName);
            break;
        case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
            capture(extended_call<cuLaunchKernelEx_ptsz_params>(info->functionParams),
                    info->symbolName);
            break;
        default:
            break;
    }
}

void write_capture_at_exit() {
    CaptureState& s = state();
    if (static_cast<long>(getpid()) != s.pid) return;  // a forked child: the parent writes
    std::string text;
    {
        const std::lock_guard lock(s.mutex);
        s.file.pid = s.pid;
        text = to_capture_json_text(s.file);
    }
    if (const std::string error = base::try_write_file_atomically(s.output_path, text);
        !error.empty()) {
        std::fprintf(stderr, "optiml-activity: captured launches lost: %s\n", error.c_str());
    }
}

}  // namespace

void start_capture() {
    const char* output = std::getenv(kCaptureOutputVariable);
    if (output == nullptr || *output == '\0') return;
    CaptureState& s = state();
    s.pid = static_cast<long>(getpid());
    s.output_path = expand_pid(output, s.pid);
    if (const char* folder = std::getenv(kSnapshotFolderVariable); folder != nullptr) {
        s.snapshot_folder = folder;
    }
    s.snapshot_limit = snapshot_limit();
    CUpti_SubscriberHandle subscriber = nullptr;
    std::string error = load_driver();
    CUptiResult result = CUPTI_SUCCESS;
    if (!error.empty()) {
        // Nothing is captured; the file says why.
    } else if ((result = cuptiSubscribe(&subscriber, on_api_call, nullptr)) != CUPTI_SUCCESS) {
        error = describe("cuptiSubscribe", result);
    } else {
        for (const CUpti_CallbackId id :
             {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz}) {
            result = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
            if (result != CUPTI_SUCCESS && error.empty()) {
                error = describe("cuptiEnableCallback", result);
            }
        }
        for (const CUpti_CallbackId id :
             {CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
              CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
              CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
              CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
              CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
              CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060}) {
            result = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
            if (result != CUPTI_SUCCESS && error.empty()) {
                error = describe("cuptiEnableCallback", result);
            }
        }
    }
    {
        const std::lock_guard lock(s.mutex);
        s.file.error = error;
    }
    // Also when subscribing failed: the file then tells the driver why nothing was captured.
    if (std::atexit(write_capture_at_exit) != 0) {
        std::fprintf(stderr, "optiml-activity: cannot register the capture's exit handler\n");
    }
}

}  // namespace optiml::profile::activity
