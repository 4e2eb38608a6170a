// liboptiml-activity.so: the CUDA driver loads it into a profiled program (CUDA_INJECTION64_PATH)
// and calls InitializeInjection() from cuInit(). It records every kernel launch through CUPTI's
// Activity API and, when the program exits, writes them to the file $OPTIML_ACTIVITY_OUTPUT names
// (format in activity_file.h). Records are copied as they arrive; aggregating them is the
// driver's job (driver/profile/app_profile.h), so this library stays small.
#include <cupti.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "driver/base/atomic_write.h"
#include "driver/profile/activity/activity_file.h"
#include "driver/profile/activity/cupti_text.h"
#include "driver/profile/activity/launch_capture.h"

namespace optiml::profile::activity {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{8} << 20;  // a few tens of thousands of records
constexpr std::size_t kBufferAlignment = 8;                 // CUPTI requires 8-byte alignment

struct Recorder {
    std::mutex mutex;
    std::string output_path;
    long pid = 0;  // the process that set up tracing
    bool tracing = false;
    ActivityFile file;
    std::map<std::string, std::string> demangled;  // names repeat for every launch
};

// Never destroyed: CUPTI's thread and the exit handler may still use it while static objects are
// being destroyed.
Recorder& recorder() {
    static Recorder* const instance = new Recorder;
    return *instance;
}

void add_error(Recorder& state, const std::string& error) {
    if (!state.file.error.empty()) state.file.error += "; ";
    state.file.error += error;
}

std::array<std::uint32_t, 3> dim3_of(std::int32_t x, std::int32_t y, std::int32_t z) {
    return {static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y),
            static_cast<std::uint32_t>(z)};
}

// Caller holds state.mutex.
void record_kernel(Recorder& state, const CUpti_ActivityKernel10& kernel) {
    LaunchRecord launch;
    launch.name = kernel.name != nullptr ? kernel.name : "<unnamed kernel>";
    auto cached = state.demangled.find(launch.name);
    if (cached == state.demangled.end()) {
        cached = state.demangled.emplace(launch.name, demangle(launch.name)).first;
    }
    launch.demangled_name = cached->second;
    launch.start_ns = kernel.start;
    launch.end_ns = kernel.end;
    launch.grid = dim3_of(kernel.gridX, kernel.gridY, kernel.gridZ);
    launch.block = dim3_of(kernel.blockX, kernel.blockY, kernel.blockZ);
    launch.device = kernel.deviceId;
    state.file.launches.push_back(std::move(launch));
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
    *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kBufferAlignment, kBufferBytes));
    *size = *buffer != nullptr ? kBufferBytes : 0;  // no buffer: CUPTI drops and counts records
    *max_records = 0;                               // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer,
                               std::size_t /*size*/, std::size_t valid_size) {
    Recorder& state = recorder();
    {
        const std::lock_guard lock(state.mutex);
        CUpti_Activity* record = nullptr;
        while (buffer != nullptr &&
               cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
            if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
                record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
                record_kernel(state, *reinterpret_cast<const CUpti_ActivityKernel10*>(record));
            }
        }
        std::size_t dropped = 0;
        if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS) {
            state.file.dropped_records += dropped;
        }
    }
    std::free(buffer);
}

void write_records_at_exit() {
    Recorder& state = recorder();
    if (static_cast<long>(getpid()) != state.pid) return;  // a forked child: the parent writes
    bool tracing = false;
    {
        const std::lock_guard lock(state.mutex);
        tracing = state.tracing;
    }
    if (tracing) {
        // Forced: also the buffers holding records of kernels still running (timestamps 0).
        const CUptiResult flushed = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        if (flushed != CUPTI_SUCCESS) {
            const std::lock_guard lock(state.mutex);
            add_error(state, describe("cuptiActivityFlushAll", flushed));
        }
    }
    std::string text;
    {
        const std::lock_guard lock(state.mutex);
        state.file.pid = state.pid;
        text = to_json_text(state.file);
    }
    if (const std::string error = base::try_write_file_atomically(state.output_path, text);
        !error.empty()) {
        std::fprintf(stderr, "optiml-activity: kernel records lost: %s\n", error.c_str());
    }
}

void start_tracing() {
    Recorder& state = recorder();
    const char* output = std::getenv(kOutputVariable);
    if (output == nullptr || *output == '\0') {
        std::fprintf(stderr,
                     "optiml-activity: %s is not set, so no kernel launches are recorded; run the "
                     "program through `optiml profile -- <program>`\n",
                     kOutputVariable);
        return;
    }
    // CUPTI may deliver buffers from its own thread as soon as tracing is on, so the lock is not
    // held across CUPTI calls.
    state.pid = static_cast<long>(getpid());
    state.output_path = expand_pid(output, state.pid);
    std::string error;
    CUptiResult result = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (result != CUPTI_SUCCESS) {
        error = describe("cuptiActivityRegisterCallbacks", result);
    } else if ((result = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) !=
               CUPTI_SUCCESS) {
        error = describe("cuptiActivityEnable(CONCURRENT_KERNEL)", result);
    }
    {
        const std::lock_guard lock(state.mutex);
        if (error.empty()) {
            state.tracing = true;
        } else {
            add_error(state, error);
        }
    }
    // Also when tracing failed: the file then tells the driver why nothing was recorded.
    if (std::atexit(write_records_at_exit) != 0) {
        std::fprintf(stderr,
                     "optiml-activity: cannot register the exit handler; nothing will "
                     "be written\n");
    }
}

}  // namespace
}  // namespace optiml::profile::activity

// The entry point the CUDA driver looks up after loading this library. It may be called more
// than once, even from within itself (CUPTI's setup can initialize the driver, which calls it
// again); tracing is set up only the first time.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    static std::atomic<bool> started{false};
    if (!started.exchange(true)) {
        optiml::profile::activity::start_tracing();
        optiml::profile::activity::start_capture();  // only under `optiml capture`
    }
    return 1;  // loaded
}
