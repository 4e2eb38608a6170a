#include "driver/measure/detail/input_rotation.h"

#include <algorithm>

#include "driver/measure/detail/rotation_plan.h"

namespace optiml::measure {

std::unique_ptr<InputRotation> InputRotation::create(std::vector<Buffer> buffers,
                                                     std::size_t l2_bytes, CUstream stream,
                                                     CUresult& result) {
    std::vector<std::size_t> sizes;
    for (const Buffer& buffer : buffers) sizes.push_back(buffer.bytes);
    std::size_t free_bytes = 0, total_bytes = 0;
    result = cuMemGetInfo(&free_bytes, &total_bytes);
    if (result != CUDA_SUCCESS) return nullptr;
    const int copies = rotation_copies(rotation_copy_bytes(sizes), l2_bytes, free_bytes);
    if (copies == 0) return nullptr;
    std::unique_ptr<InputRotation> rotation(new InputRotation(std::move(buffers), copies));
    result = cuMemAlloc(&rotation->allocation_, rotation->total_bytes_);
    if (result == CUDA_ERROR_OUT_OF_MEMORY) {  // freed meanwhile, or fragmented: flush instead
        result = CUDA_SUCCESS;
        return nullptr;
    }
    if (result == CUDA_SUCCESS) result = rotation->fill(stream);
    if (result == CUDA_SUCCESS) result = cuStreamSynchronize(stream);
    return result == CUDA_SUCCESS ? std::move(rotation) : nullptr;
}

InputRotation::InputRotation(std::vector<Buffer> buffers, int copies)
    : buffers_(std::move(buffers)), copies_(copies), pointers_(buffers_.size(), 0) {
    // Argument by argument, its copies side by side: each argument's copies fill by doubling.
    for (const Buffer& buffer : buffers_) {
        const std::size_t stride =
            (buffer.bytes + kRotationAlignment - 1) / kRotationAlignment * kRotationAlignment;
        stride_.push_back(stride);
        region_.push_back(total_bytes_);
        total_bytes_ += stride * static_cast<std::size_t>(copies_);
    }
}

InputRotation::~InputRotation() {
    if (allocation_) cuMemFree(allocation_);
}

CUdeviceptr InputRotation::pointer(int copy, std::size_t argument) const {
    return allocation_ + region_[argument] + static_cast<std::size_t>(copy) * stride_[argument];
}

// Copy 0 from the source, then copies [0, k) onto [k, 2k) until all are filled: a handful of
// large copies rather than one per copy. Outputs start as zeros.
CUresult InputRotation::fill(CUstream stream) const {
    const auto n = static_cast<std::size_t>(copies_);
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
        const Buffer& buffer = buffers_[i];
        if (buffer.bytes == 0) continue;
        const CUdeviceptr first = pointer(0, i);
        if (!buffer.source) {
            if (CUresult r = cuMemsetD8Async(first, 0, stride_[i] * n, stream); r != CUDA_SUCCESS)
                return r;
            continue;
        }
        if (CUresult r = cuMemcpyDtoDAsync(first, buffer.source, buffer.bytes, stream);
            r != CUDA_SUCCESS)
            return r;
        for (std::size_t filled = 1; filled < n;) {
            const std::size_t more = std::min(filled, n - filled);
            if (CUresult r = cuMemcpyDtoDAsync(first + filled * stride_[i], first,
                                               more * stride_[i], stream);
                r != CUDA_SUCCESS)
                return r;
            filled += more;
        }
    }
    return CUDA_SUCCESS;
}

const std::vector<CUdeviceptr>& InputRotation::next() {
    current_ = (current_ + 1) % copies_;
    for (std::size_t i = 0; i < buffers_.size(); ++i)
        pointers_[i] = buffers_[i].bytes ? pointer(current_, i) : 0;
    return pointers_;
}

CUresult InputRotation::restore_last(CUstream stream) const {
    if (current_ < 0) return CUDA_SUCCESS;
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
        const Buffer& buffer = buffers_[i];
        if (!buffer.restore || !buffer.source) continue;
        if (CUresult r =
                cuMemcpyDtoDAsync(pointer(current_, i), buffer.source, buffer.bytes, stream);
            r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

}  // namespace optiml::measure
