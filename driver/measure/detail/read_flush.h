// Evicts L2 by *reading* a clean buffer of twice its size. A memset flush leaves the L2 full of
// dirty lines that the next kernel pays to write back (about 22 MB of extra DRAM writes on an
// H200, which Nsight Compute's own cache control does not show); reading clean data leaves
// nothing to write back, so the profiled kernel's DRAM counters are its own. The kernel is PTX
// written here, JIT-compiled by the driver, so the worker needs no device compiler.
#pragma once

#include <cuda.h>

namespace optiml::measure {

class ReadFlush {
  public:
    ReadFlush() = default;
    ~ReadFlush();
    ReadFlush(const ReadFlush&) = delete;
    ReadFlush& operator=(const ReadFlush&) = delete;

    // Loads the kernel and fills `buffer` (bytes, a multiple of 16) once; the buffer stays clean.
    CUresult prepare(CUdeviceptr buffer, std::size_t bytes);
    // Enqueues the read on `stream`.
    CUresult flush(CUstream stream);

  private:
    CUmodule module_ = nullptr;
    CUfunction function_ = nullptr;
    CUdeviceptr buffer_ = 0;
    unsigned long long vectors_ = 0;  // 16-byte elements
    CUdeviceptr sink_ = 0;
};

}  // namespace optiml::measure
