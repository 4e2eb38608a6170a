#include "driver/measure/gpu_session.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <vector>

#include <cuda.h>

#include "driver/base/elapsed.h"
#include "driver/base/read_file.h"
#include "driver/measure/detail/compare_library.h"
#include "driver/measure/detail/fill.h"
#include "driver/measure/detail/gpu_clocks.h"
#include "driver/measure/detail/input_rotation.h"
#include "driver/measure/detail/read_flush.h"
#include "driver/measure/detail/trial_inputs.h"
#include "driver/measure/detail/two_runs.h"
#include "driver/measure/detail/warm_timing.h"
#include "driver/measure/statistics.h"

namespace optiml::measure {
namespace {

// The fewest cold runs of a kernel that reached the timing's cap of kernel time (a median and
// its spread need a few).
constexpr int kFewestCappedRuns = 3;

std::string error_text(CUresult result) {
    const char* name = nullptr;
    const char* text = nullptr;
    cuGetErrorName(result, &name);
    cuGetErrorString(result, &text);
    return std::string(name ? name : "CUDA_ERROR") + ": " + (text ? text : "unknown error");
}

void check(CUresult result, const char* what) {
    if (result != CUDA_SUCCESS)
        throw std::runtime_error(std::string(what) + ": " + error_text(result));
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

// One set of inputs: every non-output pointer's initial contents, on the host (to check that
// read-only inputs come back unchanged) and on the device (restores cost a device copy); and the
// __constant__ symbols' contents (a generator's differ from trial to trial).
struct InputSet {
    std::vector<std::string> host;
    std::vector<DeviceBuffer> device;
    std::vector<std::string> constants;
};

void read_clocks(CUdevice device, Measurement& m) {
    char bus_id[64] = {};
    if (cuDeviceGetPCIBusId(bus_id, sizeof(bus_id), device) != CUDA_SUCCESS) return;
    const GpuClocks clocks = read_gpu_clocks(bus_id);
    m.sm_clock_mhz = clocks.sm_mhz;
    m.memory_clock_mhz = clocks.memory_mhz;
}

// Both conditions' medians, and the deciding one's estimate in the fields the search reads.
// `warm` is empty when warm was not timed.
void record_times(Measurement& m, const std::vector<std::vector<double>>& cold,
                  const std::vector<std::vector<double>>& warm, bool decide_warm) {
    const bool by_warm = decide_warm && !warm.empty();
    const auto& deciding = by_warm ? warm : cold;
    m.decided_by = by_warm ? "warm" : "cold";
    const MedianEstimate mine = estimate_median(deciding[0]);
    m.median_ms = mine.median;
    m.min_ms = mine.min;
    m.max_ms = mine.max;
    m.ci_low_ms = mine.ci_low;
    m.ci_high_ms = mine.ci_high;
    m.runs = mine.runs;
    m.launch_bound = mine.median < kLaunchBoundMs;
    m.cold_median_ms = estimate_median(cold[0]).median;
    if (!warm.empty()) {
        m.warm_median_ms = estimate_median(warm[0]).median;
        m.warm_runs = static_cast<int>(warm[0].size());
    }
    if (deciding.size() < 2) return;
    const MedianEstimate theirs = estimate_median(deciding[1]);
    m.has_incumbent = true;
    m.incumbent_median_ms = theirs.median;
    m.incumbent_ci_low_ms = theirs.ci_low;
    m.incumbent_ci_high_ms = theirs.ci_high;
    m.incumbent_runs = theirs.runs;
    m.incumbent_cold_median_ms = estimate_median(cold[1]).median;
    if (!warm.empty()) m.incumbent_warm_median_ms = estimate_median(warm[1]).median;
}

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
        std::size_t memory = 0;
        cuDeviceTotalMem(&memory, device);
        devices.push_back({{"index", i},
                           {"name", name},
                           {"arch", major * 10 + minor},
                           {"sms", sms},
                           {"l2_bytes", l2},
                           {"driver", driver},
                           {"memory_bytes", memory}});
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
    std::vector<DeviceBuffer> buffers;                // one per argument (unused for scalars)
    std::vector<std::string> scalars;                 // bytes of each scalar argument
    std::vector<InputSet> trials;                     // the inputs of each correctness trial
    std::vector<std::vector<std::string>> reference;  // original's outputs, per trial
    std::unique_ptr<TrialInputs> fills;               // draws each trial's inputs
    LaunchSpec original_launch;
    std::unique_ptr<LoadedKernel> original;
    DeviceBuffer flush;                       // twice the L2 size, clean: only ever read
    std::unique_ptr<ReadFlush> read_flush;    // evicts L2 by reading `flush`
    std::unique_ptr<InputRotation> rotation;  // made at the first timing that asks for it
    bool rotation_tried = false;
    std::unique_ptr<CompareLibrary> compare;  // the project's comparison function, if any
    // Host copies of every buffer after a verification run, kept between candidates: allocating
    // and zeroing them per run cost more than the comparisons (saxpy: 8 x 128 MB per candidate).
    std::vector<std::string> host_a, host_b;

    ~State() {
        if (!context) return;
        cuCtxSetCurrent(context);
        original.reset();
        rotation.reset();
        read_flush.reset();
        for (auto& b : buffers) free(b);
        for (auto& set : trials)
            for (auto& b : set.device) free(b);
        free(flush);
        if (start) cuEventDestroy(start);
        if (stop) cuEventDestroy(stop);
        if (stream) cuStreamDestroy(stream);
        cuDevicePrimaryCtxRelease(device);
    }

    static void free(DeviceBuffer& b) {
        if (b.ptr) cuMemFree(b.ptr);
        b.ptr = 0;
    }

    const BufferSpec& argument(std::size_t i) const { return problem.arguments[i]; }
    bool is_output(std::size_t i) const {
        return argument(i).is_pointer && argument(i).role != spec::Role::Input;
    }
    bool is_read_only(std::size_t i) const {
        return argument(i).is_pointer && argument(i).role == spec::Role::Input;
    }

    InputSet make_inputs(std::uint64_t seed_offset) {
        InputSet set;
        HostInputs host = fills->make(seed_offset);
        set.host = std::move(host.arguments);
        set.constants = std::move(host.constants);
        set.device.resize(buffers.size());
        for (std::size_t i = 0; i < buffers.size(); ++i) {
            const auto& a = argument(i);
            if (!a.is_pointer || a.role == spec::Role::Output) continue;
            set.device[i].bytes = buffers[i].bytes;
            check(cuMemAlloc(&set.device[i].ptr, set.device[i].bytes), "cuMemAlloc");
            check(cuMemcpyHtoD(set.device[i].ptr, set.host[i].data(), set.host[i].size()),
                  "cuMemcpyHtoD");
        }
        return set;
    }

    // Inputs and inouts from `set`; outputs filled with `poison` bytes (0xFF is NaN for floats).
    CUresult reset_buffers(const InputSet& set, unsigned char poison) {
        for (std::size_t i = 0; i < buffers.size(); ++i) {
            const auto& a = argument(i);
            if (!a.is_pointer) continue;
            CUresult r = a.role == spec::Role::Output
                             ? cuMemsetD8Async(buffers[i].ptr, poison, buffers[i].bytes, stream)
                             : cuMemcpyDtoDAsync(buffers[i].ptr, set.device[i].ptr,
                                                 buffers[i].bytes, stream);
            if (r != CUDA_SUCCESS) return r;
        }
        return CUDA_SUCCESS;
    }

    // Before each timed run: inouts get their real input back (outputs need no reset).
    CUresult restore_inouts(const InputSet& set) {
        for (std::size_t i = 0; i < buffers.size(); ++i) {
            if (argument(i).role != spec::Role::InOut) continue;
            CUresult r =
                cuMemcpyDtoDAsync(buffers[i].ptr, set.device[i].ptr, buffers[i].bytes, stream);
            if (r != CUDA_SUCCESS) return r;
        }
        return CUDA_SUCCESS;
    }

    CUresult load(const LaunchSpec& launch, LoadedKernel& kernel, std::string& why) {
        const std::string image = base::read_file(launch.image_path);
        if (image.empty()) {
            why = "cannot read " + launch.image_path;
            return CUDA_ERROR_FILE_NOT_FOUND;
        }
        CUresult r = cuModuleLoadData(&kernel.module, image.data());
        if (r == CUDA_SUCCESS)
            r = cuModuleGetFunction(&kernel.function, kernel.module, launch.symbol.c_str());
        if (r == CUDA_SUCCESS && launch.shared_memory_bytes > 48 * 1024)
            r = cuFuncSetAttribute(kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   static_cast<int>(launch.shared_memory_bytes));
        for (std::size_t c = 0; r == CUDA_SUCCESS && c < problem.constants.size(); ++c) {
            LoadedKernel::Symbol symbol;
            r = cuModuleGetGlobal(&symbol.ptr, &symbol.bytes, kernel.module,
                                  problem.constants[c].name.c_str());
            if (r != CUDA_SUCCESS) {
                why = "__constant__ symbol '" + problem.constants[c].name + "' not found";
                break;
            }
            kernel.constants.push_back(symbol);
        }
        if (r == CUDA_SUCCESS) r = set_constants(kernel, trials[0]);
        if (r != CUDA_SUCCESS && why.empty()) why = error_text(r);
        return r;
    }

    // The module's __constant__ symbols as `inputs` has them.
    CUresult set_constants(const LoadedKernel& kernel, const InputSet& inputs) {
        for (std::size_t c = 0; c < kernel.constants.size(); ++c) {
            const std::string& bytes = inputs.constants[c];
            CUresult r = cuMemcpyHtoD(kernel.constants[c].ptr, bytes.data(),
                                      std::min(kernel.constants[c].bytes, bytes.size()));
            if (r != CUDA_SUCCESS) return r;
        }
        return CUDA_SUCCESS;
    }

    // A candidate's module, once the reference exists; otherwise the failure that ends its turn.
    std::optional<Measurement> load_candidate(const LaunchSpec& launch, LoadedKernel& kernel) {
        if (reference.empty()) return failed("error", "no reference: send \"reference\" first");
        std::string why;
        if (CUresult r = load(launch, kernel, why); r != CUDA_SUCCESS)
            return failed("load_error", why, is_sticky(r));
        return std::nullopt;
    }

    // Pointer arguments are the problem's own buffers, or `pointers` (a rotated copy) if given.
    CUresult launch_once(const LaunchSpec& launch, CUfunction function,
                         const std::vector<CUdeviceptr>* pointers = nullptr) {
        std::vector<CUdeviceptr> addresses(buffers.size());
        for (std::size_t i = 0; i < buffers.size(); ++i)
            addresses[i] = pointers ? (*pointers)[i] : buffers[i].ptr;
        std::vector<void*> params;
        for (std::size_t i = 0; i < buffers.size(); ++i)
            params.push_back(argument(i).is_pointer ? static_cast<void*>(&addresses[i])
                                                    : static_cast<void*>(scalars[i].data()));
        return cuLaunchKernel(function, launch.grid[0], launch.grid[1], launch.grid[2],
                              launch.block[0], launch.block[1], launch.block[2],
                              launch.shared_memory_bytes, stream, params.data(), nullptr);
    }

    // One run on freshly reset buffers and constants; copies back every pointer argument.
    CUresult run_and_read(const LaunchSpec& launch, const LoadedKernel& kernel,
                          const InputSet& inputs, unsigned char poison,
                          std::vector<std::string>& contents) {
        CUresult r = reset_buffers(inputs, poison);
        if (r == CUDA_SUCCESS) r = set_constants(kernel, inputs);
        if (r == CUDA_SUCCESS) r = launch_once(launch, kernel.function);
        if (r == CUDA_SUCCESS) r = cuStreamSynchronize(stream);
        contents.resize(buffers.size());
        for (std::size_t i = 0; r == CUDA_SUCCESS && i < buffers.size(); ++i) {
            if (!argument(i).is_pointer) continue;
            contents[i].resize(buffers[i].bytes);  // a no-op after the first run
            r = cuMemcpyDtoH(contents[i].data(), buffers[i].ptr, buffers[i].bytes);
        }
        return r;
    }

    Measurement launch_failure(CUresult r, const std::string& when) {
        return failed("launch_error", when + ": " + error_text(r), is_sticky(r));
    }

    // Outputs against the original's on the same inputs; read-only inputs unchanged.
    std::optional<Measurement> judge(const std::vector<std::string>& contents,
                                     const std::vector<std::string>& expected,
                                     const InputSet& inputs, const std::string& trial) {
        for (std::size_t i = 0; i < contents.size(); ++i) {
            const auto& a = argument(i);
            if (is_read_only(i) && contents[i] != inputs.host[i])
                return failed(
                    "input_modified",
                    a.name + " is read-only (role input) but the variant changed it" + trial);
            if (!is_output(i)) continue;
            if (auto why = compare_output(a, contents[i].data(), expected[i].data(),
                                          problem.arguments, problem.tolerance, compare.get()))
                return failed("mismatch", *why + trial);
        }
        return std::nullopt;
    }

    // Every correctness check, in order; nullopt when the variant passes them all.
    std::optional<Measurement> verify(const LaunchSpec& launch, const LoadedKernel& kernel) {
        std::vector<std::string>& run_a = host_a;
        std::vector<std::string>& run_b = host_b;
        if (CUresult r = run_and_read(launch, kernel, trials[0], kPoisonA, run_a);
            r != CUDA_SUCCESS)
            return launch_failure(r, "verification run");
        if (CUresult r = run_and_read(launch, kernel, trials[0], kPoisonB, run_b);
            r != CUDA_SUCCESS)
            return launch_failure(r, "verification run");
        for (std::size_t i = 0; i < buffers.size(); ++i) {
            if (!is_output(i)) continue;
            const auto& a = argument(i);
            const TwoRunVerdict verdict =
                classify_two_runs(a.type, run_a[i].data(), run_b[i].data(), a.count,
                                  problem.deterministic, problem.tolerance);
            if (verdict.kind == TwoRunVerdict::Kind::Unwritten)
                return failed("unwritten", describe(a.name, verdict, a.count));
            if (verdict.kind == TwoRunVerdict::Kind::Nondeterministic)
                return failed("nondeterministic", describe(a.name, verdict, a.count));
        }
        if (auto verdict = judge(run_a, reference[0], trials[0], " (trial 1)")) return verdict;
        for (std::size_t t = 1; t < trials.size(); ++t) {
            if (CUresult r = run_and_read(launch, kernel, trials[t], kPoisonA, run_a);
                r != CUDA_SUCCESS)
                return launch_failure(r, "verification run");
            if (auto verdict =
                    judge(run_a, reference[t], trials[t], " (trial " + std::to_string(t + 1) + ")"))
                return verdict;
        }
        return std::nullopt;
    }

    // The rotated copies of the arguments, made at the first timing that asks for them from the
    // first trial's inputs; null when they do not fit in device memory (then L2 is flushed).
    CUresult ensure_rotation() {
        if (rotation || rotation_tried) return CUDA_SUCCESS;
        rotation_tried = true;
        std::vector<InputRotation::Buffer> copies(buffers.size());
        for (std::size_t i = 0; i < buffers.size(); ++i) {
            const auto& a = argument(i);
            if (!a.is_pointer) continue;
            const bool output = a.role == spec::Role::Output;
            copies[i] = {buffers[i].bytes, output ? 0 : trials[0].device[i].ptr,
                         a.role == spec::Role::InOut};
        }
        CUresult r = CUDA_SUCCESS;
        rotation = InputRotation::create(std::move(copies), flush.bytes / 2, stream, r);
        return r;
    }

    // A read, not a memset: writing the buffer would leave up to ~22 MB of dirty lines in an
    // H200's L2 that the timed kernel then pays to write back (about 5 us per run).
    CUresult flush_l2() { return read_flush->flush(stream); }

    // Interleaved timed runs of each kernel (the challenger first in even rounds, last in odd
    // ones), until every median is known to `relative_ci`, or a run or time cap is reached.
    // Each run starts with a cold L2 as `timing` says; `how` records the method used. The runs
    // see one trial's inputs, every kernel's constants set to that trial's: the rotated copies
    // are the first trial's, the own buffers keep the last trial's that verification left.
    CUresult time_interleaved(
        const std::vector<std::pair<const LaunchSpec*, const LoadedKernel*>>& kernels,
        const TimingSpec& timing, std::vector<std::vector<double>>& times, Measurement& how) {
        times.assign(kernels.size(), {});
        if (timing.rotate_inputs)
            if (CUresult r = ensure_rotation(); r != CUDA_SUCCESS) return r;
        InputRotation* rotating = timing.rotate_inputs ? rotation.get() : nullptr;
        const bool flush_each = !rotating && (timing.flush_l2 || timing.rotate_inputs);
        how.cold_cache = rotating ? "rotate" : flush_each ? "flush" : "none";
        how.input_copies = rotating ? rotating->copies() : 0;
        const InputSet& timed = rotating ? trials[0] : trials.back();
        for (const auto& [launch, kernel] : kernels)
            if (CUresult r = set_constants(*kernel, timed); r != CUDA_SUCCESS) return r;
        // A run's pointers: the next copy, or the own buffers with their inouts restored.
        const auto prepare = [&](const std::vector<CUdeviceptr>*& pointers) {
            pointers = rotating ? &rotating->next() : nullptr;
            return rotating ? CUDA_SUCCESS : restore_inouts(timed);
        };
        const auto finish = [&] {
            return rotating ? rotating->restore_last(stream) : CUDA_SUCCESS;
        };
        // Filling the copies went through L2 as well.
        if (rotating)
            if (CUresult r = flush_l2(); r != CUDA_SUCCESS) return r;
        const std::vector<CUdeviceptr>* pointers = nullptr;
        for (int w = 0; w < timing.warmup; ++w)
            for (const auto& [launch, kernel] : kernels) {
                CUresult r = prepare(pointers);
                if (r == CUDA_SUCCESS) r = launch_once(*launch, kernel->function, pointers);
                if (r == CUDA_SUCCESS) r = finish();
                if (r != CUDA_SUCCESS) return r;
            }
        std::vector<double> total(kernels.size(), 0.0);
        // A kernel settled stops being timed while the others go on: a 418 ms kernel beside a
        // 35 ms one need not run for as long as the shorter one takes to settle.
        std::vector<bool> settled(kernels.size(), false);
        for (int round = 0; round < timing.max_runs; ++round) {
            for (std::size_t k = 0; k < kernels.size(); ++k) {
                const std::size_t which = round % 2 ? kernels.size() - 1 - k : k;
                if (settled[which]) continue;
                const auto& [launch, kernel] = kernels[which];
                CUresult r = prepare(pointers);
                if (r == CUDA_SUCCESS && flush_each) r = flush_l2();
                if (r == CUDA_SUCCESS) r = cuEventRecord(start, stream);
                if (r == CUDA_SUCCESS) r = launch_once(*launch, kernel->function, pointers);
                if (r == CUDA_SUCCESS) r = cuEventRecord(stop, stream);
                if (r == CUDA_SUCCESS) r = finish();
                if (r == CUDA_SUCCESS) r = cuEventSynchronize(stop);
                float ms = 0.0f;
                if (r == CUDA_SUCCESS) r = cuEventElapsedTime(&ms, start, stop);
                if (r != CUDA_SUCCESS) return r;
                times[which].push_back(ms);
                total[which] += ms;
            }
            // A kernel is settled once its median is known closely enough after min_runs, or
            // once it has run cap_ms (as few as kFewestCappedRuns runs: ten of a 418 ms kernel
            // would take 4 s where three tell its median to a fraction of a percent).
            const int runs = round + 1;
            if (runs < kFewestCappedRuns) continue;
            for (std::size_t k = 0; k < kernels.size(); ++k)
                settled[k] = settled[k] || total[k] >= timing.cap_ms ||
                             (runs >= timing.min_runs &&
                              estimate_median(times[k]).relative_width() <= timing.relative_ci);
            if (std::all_of(settled.begin(), settled.end(), [](bool s) { return s; })) break;
        }
        return CUDA_SUCCESS;
    }

    CUresult time_warm(
        const std::vector<std::pair<const LaunchSpec*, const LoadedKernel*>>& kernels,
        const TimingSpec& timing, const std::vector<std::vector<double>>& cold,
        std::vector<std::vector<double>>& warm, Measurement& m);
};

// The State's warm phase: after the cold runs, each kernel in bursts on one set of buffers (a
// rotated copy when rotating, the inputs the cold runs used), as a program's loop reuses its own.
// Inouts are restored once before, not between launches: a loop does not restore them either.
CUresult GpuSession::State::time_warm(
    const std::vector<std::pair<const LaunchSpec*, const LoadedKernel*>>& kernels,
    const TimingSpec& timing, const std::vector<std::vector<double>>& cold,
    std::vector<std::vector<double>>& warm, Measurement& m) {
    double shortest = 0.0;
    for (const auto& times : cold) {
        const double median = estimate_median(times).median;
        shortest = shortest > 0.0 ? std::min(shortest, median) : median;
    }
    const WarmPlan plan = plan_warm(shortest, timing);
    m.warm_burst = plan.burst;
    InputRotation* rotating = timing.rotate_inputs ? rotation.get() : nullptr;
    const std::vector<CUdeviceptr>* pointers = rotating ? &rotating->next() : nullptr;
    CUresult r = rotating ? CUDA_SUCCESS : restore_inouts(trials.back());
    if (r != CUDA_SUCCESS) return r;
    r = measure::time_warm(
        stream, kernels.size(),
        [&](std::size_t k) {
            return launch_once(*kernels[k].first, kernels[k].second->function, pointers);
        },
        plan, warm);
    if (r == CUDA_SUCCESS && rotating) r = rotating->restore_last(stream);
    return r;
}

GpuSession::GpuSession(int device, Problem problem) : state_(std::make_unique<State>()) {
    State& s = *state_;
    s.problem = std::move(problem);
    if (!s.problem.compare_library.empty())
        s.compare =
            std::make_unique<CompareLibrary>(s.problem.compare_library, s.problem.compare_source);
    check(cuInit(0), "cuInit");
    check(cuDeviceGet(&s.device, device), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&s.context, s.device), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(s.context), "cuCtxSetCurrent");
    check(cuStreamCreate(&s.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    check(cuEventCreate(&s.start, CU_EVENT_DEFAULT), "cuEventCreate");
    check(cuEventCreate(&s.stop, CU_EVENT_DEFAULT), "cuEventCreate");

    const auto& arguments = s.problem.arguments;
    s.buffers.resize(arguments.size());
    s.scalars.resize(arguments.size());
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const auto& a = arguments[i];
        if (!a.is_pointer) {
            s.scalars[i] = scalar_bytes(a.type, a.value);
            continue;
        }
        s.buffers[i].bytes = std::max<std::size_t>(1, a.count * spec::size_of(a.type));
        check(cuMemAlloc(&s.buffers[i].ptr, s.buffers[i].bytes), "cuMemAlloc");
    }
    // Trial t draws every fill with seed + seed_base + t: fresh inputs per trial and per run.
    s.fills = std::make_unique<TrialInputs>(s.problem);
    for (int t = 0; t < std::max(1, s.problem.trials); ++t)
        s.trials.push_back(s.make_inputs(s.problem.seed_base + static_cast<std::uint64_t>(t)));

    int l2 = 0;
    cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, s.device);
    s.flush.bytes = 2 * static_cast<std::size_t>(std::max(l2, 1 << 20));
    check(cuMemAlloc(&s.flush.ptr, s.flush.bytes), "cuMemAlloc");
    s.read_flush = std::make_unique<ReadFlush>();
    check(s.read_flush->prepare(s.flush.ptr, s.flush.bytes), "loading the L2 read-flush kernel");
}

GpuSession::~GpuSession() = default;

Measurement GpuSession::run_reference(const LaunchSpec& launch) {
    State& s = *state_;
    s.original = std::make_unique<LoadedKernel>();
    s.original_launch = launch;
    std::string why;
    if (CUresult r = s.load(launch, *s.original, why); r != CUDA_SUCCESS)
        return failed("load_error", why, is_sticky(r));
    s.reference.assign(s.trials.size(), {});
    for (std::size_t t = 0; t < s.trials.size(); ++t)
        if (CUresult r = s.run_and_read(launch, *s.original, s.trials[t], kPoisonA, s.reference[t]);
            r != CUDA_SUCCESS)
            return s.launch_failure(r, "original kernel, trial " + std::to_string(t + 1));
    Measurement m;
    m.ok = true;
    m.status = "ok";
    return m;
}

Measurement GpuSession::evaluate(const LaunchSpec& launch, const TimingSpec& timing,
                                 const LaunchSpec* incumbent, bool verified) {
    State& s = *state_;
    LoadedKernel kernel;
    if (auto failure = s.load_candidate(launch, kernel)) return *failure;

    // Correctness first: a wrong kernel is never timed. Verified elsewhere, the buffers get the
    // last trial's inputs, as verification here would have left them for the timed runs.
    const auto verify_start = std::chrono::steady_clock::now();
    if (!verified) {
        if (auto verdict = s.verify(launch, kernel)) return *verdict;
    } else if (CUresult r = s.reset_buffers(s.trials.back(), kPoisonA); r != CUDA_SUCCESS) {
        return s.launch_failure(r, "input reset");
    }
    const double verify_ms = verified ? 0.0 : base::since_ms(verify_start);

    LoadedKernel incumbent_kernel;
    std::vector<std::pair<const LaunchSpec*, const LoadedKernel*>> kernels{{&launch, &kernel}};
    if (incumbent) {
        std::string why;
        if (s.load(*incumbent, incumbent_kernel, why) != CUDA_SUCCESS)
            return failed("error", "the incumbent no longer loads: " + why);
        kernels.emplace_back(incumbent, &incumbent_kernel);
    }
    const auto timing_start = std::chrono::steady_clock::now();
    std::vector<std::vector<double>> times;
    Measurement m;
    if (CUresult r = s.time_interleaved(kernels, timing, times, m); r != CUDA_SUCCESS)
        return s.launch_failure(r, "timed run");
    std::vector<std::vector<double>> warm;
    if (timing.warm || timing.decide_warm)
        if (CUresult r = s.time_warm(kernels, timing, times, warm, m); r != CUDA_SUCCESS)
            return s.launch_failure(r, "warm timed run");
    m.ok = true;
    m.status = "ok";
    record_times(m, times, warm, timing.decide_warm);
    m.verify_ms = verify_ms;
    m.timing_ms = base::since_ms(timing_start);
    read_clocks(s.device, m);
    return m;
}

Measurement GpuSession::reverify(const LaunchSpec& launch, std::uint64_t seed) {
    State& s = *state_;
    if (!s.original) return failed("error", "no reference: send \"reference\" first");
    LoadedKernel kernel;
    std::string why;
    if (CUresult r = s.load(launch, kernel, why); r != CUDA_SUCCESS)
        return failed("load_error", why, is_sticky(r));
    InputSet fresh = s.make_inputs(seed);
    std::vector<std::string> expected, contents;
    CUresult r = s.run_and_read(s.original_launch, *s.original, fresh, kPoisonA, expected);
    if (r == CUDA_SUCCESS) r = s.run_and_read(launch, kernel, fresh, kPoisonA, contents);
    std::optional<Measurement> verdict;
    if (r != CUDA_SUCCESS)
        verdict = s.launch_failure(r, "re-verification run");
    else
        verdict = s.judge(contents, expected, fresh, " (re-verification on new inputs)");
    for (auto& b : fresh.device) State::free(b);
    if (verdict) return *verdict;
    Measurement m;
    m.ok = true;
    m.status = "ok";
    return m;
}

Measurement GpuSession::verify(const LaunchSpec& launch) {
    State& s = *state_;
    LoadedKernel kernel;
    if (auto failure = s.load_candidate(launch, kernel)) return *failure;
    const auto verify_start = std::chrono::steady_clock::now();
    if (auto verdict = s.verify(launch, kernel)) return *verdict;
    Measurement m;
    m.ok = true;
    m.status = "ok";
    m.verify_ms = base::since_ms(verify_start);
    return m;
}

CUcontext GpuSession::context() const {
    return state_->context;
}

CUdevice GpuSession::device() const {
    return state_->device;
}

CUresult GpuSession::load(const LaunchSpec& launch, LoadedKernel& kernel, std::string& why) {
    return state_->load(launch, kernel, why);
}

CUresult GpuSession::prepare_cold() {
    State& s = *state_;
    CUresult r = s.reset_buffers(s.trials[0], kPoisonA);
    if (r == CUDA_SUCCESS) r = s.flush_l2();
    return r;
}

CUresult GpuSession::launch_once(const LaunchSpec& launch, CUfunction function) {
    return state_->launch_once(launch, function);
}

double GpuSession::time_cold(const LaunchSpec& launch, CUfunction function) {
    State& s = *state_;
    float ms = 0.0f;
    CUresult r = prepare_cold();
    if (r == CUDA_SUCCESS) r = cuEventRecord(s.start, s.stream);
    if (r == CUDA_SUCCESS) r = s.launch_once(launch, function);
    if (r == CUDA_SUCCESS) r = cuEventRecord(s.stop, s.stream);
    if (r == CUDA_SUCCESS) r = cuEventSynchronize(s.stop);
    if (r == CUDA_SUCCESS) r = cuEventElapsedTime(&ms, s.start, s.stop);
    if (r != CUDA_SUCCESS) throw std::runtime_error("profiled launch failed: " + error_text(r));
    return static_cast<double>(ms);
}

CUresult GpuSession::flush_l2() {
    return state_->flush_l2();
}

}  // namespace optiml::measure
