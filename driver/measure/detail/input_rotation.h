// Several copies of a problem's argument buffers in one device allocation, for timed runs that
// each start with none of their data in L2: the alternative to flushing it ("cold_cache":
// "rotate"). rotation_plan.h decides how many. Lives in the worker (it links the CUDA driver).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include <cuda.h>

namespace optiml::measure {

class InputRotation {
  public:
    struct Buffer {
        std::size_t bytes = 0;   // 0: not a pointer argument (a scalar)
        CUdeviceptr source = 0;  // the initial contents (0: none; an output)
        bool restore = false;    // rewritten from `source` after every run (an inout)
    };

    // Allocates the copies and fills each from the sources. Returns null with CUDA_SUCCESS in
    // `result` when they do not fit in device memory, null with the error when CUDA failed.
    static std::unique_ptr<InputRotation> create(std::vector<Buffer> buffers, std::size_t l2_bytes,
                                                 CUstream stream, CUresult& result);
    ~InputRotation();
    InputRotation(const InputRotation&) = delete;
    InputRotation& operator=(const InputRotation&) = delete;

    int copies() const { return copies_; }
    // The pointer of every argument (0 for scalars) in the next copy, in turn.
    const std::vector<CUdeviceptr>& next();
    // After the run on the copy that next() gave: its inouts get their initial contents back,
    // now rather than just before its next run, so the restore's own traffic has left L2 by then.
    CUresult restore_last(CUstream stream) const;

  private:
    InputRotation(std::vector<Buffer> buffers, int copies);
    CUdeviceptr pointer(int copy, std::size_t argument) const;
    CUresult fill(CUstream stream) const;

    std::vector<Buffer> buffers_;
    std::vector<std::size_t> stride_;  // per argument: bytes of one copy, aligned
    std::vector<std::size_t> region_;  // per argument: offset of its copies in the allocation
    std::size_t total_bytes_ = 0;
    int copies_ = 0;
    CUdeviceptr allocation_ = 0;
    int current_ = -1;
    std::vector<CUdeviceptr> pointers_;
};

}  // namespace optiml::measure
