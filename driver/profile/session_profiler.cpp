#include "driver/profile/detail/session_profiler.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include "driver/base/elapsed.h"
#include "driver/base/read_file.h"
#include "driver/profile/detail/pc_sampler.h"
#include "driver/profile/detail/range_profiler.h"

namespace optiml::profile {

ProfileResult profile_launch(measure::GpuSession& session, const measure::LaunchSpec& launch,
                             const ProfileRequest& request) {
    ProfileResult result;
    auto kernel = std::make_unique<measure::LoadedKernel>();
    std::string why;
    if (CUresult r = session.load(launch, *kernel, why); r != CUDA_SUCCESS) {
        result.message = "load_error: " + why;
        return result;
    }
    int value = 0;
    cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_NUM_REGS, kernel->function);
    result.function.registers_per_thread = value;
    cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, kernel->function);
    result.function.local_bytes_per_thread = value;
    cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel->function);
    result.function.static_shared_bytes = value;
    cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kernel->function);
    result.function.max_threads_per_block = value;
    result.function.dynamic_shared_bytes = launch.shared_memory_bytes;

    auto cold_launch = [&](CUfunction function) {
        CUresult r = session.prepare_cold();
        if (r == CUDA_SUCCESS) r = session.launch_once(launch, function);
        return r;
    };
    try {
        if (!request.metrics.empty()) {
            const auto start = std::chrono::steady_clock::now();
            const CounterCollection counters = collect_counters(
                session.context(), session.device(), request.metrics,
                [&] { return session.prepare_cold(); },
                [&] { return session.launch_once(launch, kernel->function); });
            result.counters_ms = base::since_ms(start);
            result.counters = counters.values;
            result.unavailable = counters.unavailable;
            result.counters_permitted = counters.permitted;
            result.counters_note = counters.note;
            result.passes = counters.passes;
        }
        if (request.pc_sampling) {
            // The module is loaded again while sampling is on, so CUPTI sees it load.
            const std::string cubin = base::read_file(launch.image_path);
            const double kernel_ms = std::max(0.001, session.time_cold(launch, kernel->function));
            kernel.reset();
            // At least two launches: CUPTI hands over a kernel's samples once the next kernel
            // runs, so the read flush after the last launch pushes its samples out too.
            const int launches = static_cast<int>(
                std::clamp(request.pc_sampling_target_ms / kernel_ms, 2.0, 1000.0));
            const auto start = std::chrono::steady_clock::now();
            int sms = 0;
            cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, session.device());
            // Kernel-serialized collection first; should it bring no samples, continuous
            // collection at this period and then at a shorter one.
            const std::uint32_t period =
                std::min<std::uint32_t>(17, sampling_period_for(kernel_ms, launches, sms));
            std::string tried;
            StallCollection stalls;
            const std::pair<std::uint32_t, bool> attempts[] = {
                {period, true}, {period, false}, {period - 2, false}};
            for (const auto& [attempt, serialized] : attempts) {
                measure::LoadedKernel sampled;
                stalls = sample_stalls(
                    session.context(), cubin, launch.symbol, attempt, serialized,
                    [&]() -> CUresult {
                        std::string load_why;
                        if (CUresult r = session.load(launch, sampled, load_why); r != CUDA_SUCCESS)
                            return r;
                        for (int i = 0; i < launches; ++i)
                            if (CUresult r = cold_launch(sampled.function); r != CUDA_SUCCESS)
                                return r;
                        return session.flush_l2();
                    });
                const bool no_rights = stalls.note.find("rights") != std::string::npos;
                if (stalls.done || no_rights) break;
                tried += (tried.empty() ? "" : "; ") + stalls.note;
            }
            result.pc_sampling_ms = base::since_ms(start);
            result.pc_sampling_done = stalls.done;
            result.pc_sampling_note = stalls.done ? "" : tried;
            result.stalls = stalls.samples;
            result.pc_total_samples = stalls.total_samples;
            result.pc_dropped_samples = stalls.dropped_samples;
            result.pc_sampling_launches = launches;
            if (stalls.done && !tried.empty())
                result.pc_sampling_note = "sampled at another period after: " + tried;
        }
    } catch (const std::exception& e) {
        result.message = e.what();
        return result;
    }
    result.ok = true;
    return result;
}

}  // namespace optiml::profile
