// A machine-wide lock held while tuning, so two builds never time kernels on the GPUs at once
// (timings taken side by side are worthless). $OPTIML_LOCK_FILE overrides the path.
#pragma once

#include <string>

namespace optiml::tune {

class GpuLock {
  public:
    GpuLock();  // blocks until the lock is free
    ~GpuLock();
    GpuLock(const GpuLock&) = delete;
    GpuLock& operator=(const GpuLock&) = delete;

  private:
    int fd_ = -1;
};

}  // namespace optiml::tune
