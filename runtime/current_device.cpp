// current_device()'s first call: counts the devices the process sees, once; until a count
// succeeds (no GPU, no driver) every call asks cudaGetDevice, which reports the error.
#include <optiml/runtime.h>

namespace optiml::rt::detail {

std::atomic<int> visible_devices{0};

cudaError_t current_device_counted(int* device) noexcept {
    if (visible_devices.load(std::memory_order_relaxed) == 0) {
        int count = 0;
        if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0)
            visible_devices.store(count, std::memory_order_relaxed);
    }
    if (visible_devices.load(std::memory_order_relaxed) == 1) {
        *device = 0;
        return cudaSuccess;
    }
    return cudaGetDevice(device);
}

}  // namespace optiml::rt::detail
