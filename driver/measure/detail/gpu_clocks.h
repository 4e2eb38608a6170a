// The clocks a GPU runs at right now, read through NVML, which the worker loads at run time
// (libnvidia-ml ships with the driver, not with the toolkit, so nothing links against it).
#pragma once

namespace optiml::measure {

struct GpuClocks {
    unsigned sm_mhz = 0;  // 0: unknown (no NVML, or the device was not found)
    unsigned memory_mhz = 0;
};

// `pci_bus_id` as cuDeviceGetPCIBusId writes it ("0000:19:00.0").
GpuClocks read_gpu_clocks(const char* pci_bus_id);

}  // namespace optiml::measure
