// Whether this machine has a CUDA driver that initializes and reports a device, asked through
// dlopen so that a test binary runs (and skips) where no driver is installed.
#pragma once

#include <dlfcn.h>

namespace optiml::test_support {

inline bool gpu_present() {
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (driver == nullptr) return false;
    using Init = int (*)(unsigned);
    using Count = int (*)(int*);
    const auto init = reinterpret_cast<Init>(dlsym(driver, "cuInit"));
    const auto count = reinterpret_cast<Count>(dlsym(driver, "cuDeviceGetCount"));
    int devices = 0;
    return init != nullptr && count != nullptr && init(0) == 0 && count(&devices) == 0 &&
           devices > 0;
}

}  // namespace optiml::test_support
