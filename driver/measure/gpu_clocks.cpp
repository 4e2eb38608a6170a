#include "driver/measure/detail/gpu_clocks.h"

#include <dlfcn.h>

namespace optiml::measure {
namespace {

// The three NVML entry points used, as the NVML API documents them: every call returns 0 on
// success; a device is an opaque handle; clock type 1 is the SM clock and 2 the memory clock.
using Init = int (*)();
using HandleByBusId = int (*)(const char*, void**);
using ClockInfo = int (*)(void*, int, unsigned*);
constexpr int kClockSm = 1;
constexpr int kClockMemory = 2;

struct Nvml {
    HandleByBusId handle_by_bus_id = nullptr;
    ClockInfo clock_info = nullptr;
    bool ready = false;

    Nvml() {
        void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!library) return;
        auto init = reinterpret_cast<Init>(dlsym(library, "nvmlInit_v2"));
        handle_by_bus_id =
            reinterpret_cast<HandleByBusId>(dlsym(library, "nvmlDeviceGetHandleByPciBusId_v2"));
        clock_info = reinterpret_cast<ClockInfo>(dlsym(library, "nvmlDeviceGetClockInfo"));
        ready = init && handle_by_bus_id && clock_info && init() == 0;
    }
};

}  // namespace

GpuClocks read_gpu_clocks(const char* pci_bus_id) {
    static const Nvml nvml;
    GpuClocks clocks;
    void* device = nullptr;
    if (!nvml.ready || nvml.handle_by_bus_id(pci_bus_id, &device) != 0) return clocks;
    nvml.clock_info(device, kClockSm, &clocks.sm_mhz);
    nvml.clock_info(device, kClockMemory, &clocks.memory_mhz);
    return clocks;
}

}  // namespace optiml::measure
