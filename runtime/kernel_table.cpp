// KernelTable's first-use path: choose an image per device, load it once, fall back to the
// original kernel when anything about the tuned image fails.
#include <climits>
#include <set>
#include <string>

#include <optiml/runtime.h>

namespace optiml::rt {
namespace {

constexpr const char* forced_reason = "OPTIML_FORCE_ORIGINAL=1; original kernel";
constexpr const char* beyond_table_reason =
    "device index above the dispatch table's 64 slots; original kernel";

// A stable C string for a message composed at run time. Messages are few (one per failing image)
// and live until exit; the set is reachable from a static pointer, so it is not a leak.
const char* intern(const std::string& message) {
    static std::mutex mutex;
    static auto* messages = new std::set<std::string>;
    const std::lock_guard<std::mutex> lock(mutex);
    return messages->insert(message).first->c_str();
}

const char* load_failure_reason(const Image& image, cudaError_t status) {
    return intern(std::string("loading the tuned ") +
                  (image.is_ptx ? "PTX (compute_" : "CUBIN (sm_") + std::to_string(image.arch) +
                  ") failed with " + cudaGetErrorName(status) + "; original kernel");
}

cudaError_t query_arch(int device, int* arch) {
    int major = 0;
    int minor = 0;
    cudaError_t status = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (status == cudaSuccess) {
        status = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    }
    *arch = major * 10 + minor;
    return status;
}

}  // namespace

cudaError_t KernelTable::resolve_first(int device, cudaKernel_t* kernel, Dispatch* dispatch,
                                       cudaLibrary_t* library) {
    *kernel = nullptr;
    if (library != nullptr) *library = nullptr;
    if (device < 0) {
        *dispatch = Dispatch{-1, -1, cudaGetErrorName(cudaErrorInvalidDevice)};
        return cudaErrorInvalidDevice;
    }
    if (device >= max_devices) {
        *dispatch = Dispatch{-1, -1, beyond_table_reason};
        return cudaSuccess;
    }

    const std::lock_guard<std::mutex> lock(mutex_);
    Slot& slot = slots_[device];
    if (!slot.ready.load(std::memory_order_relaxed)) {
        if (force_original() && !of_original_) {
            slot.dispatch = Dispatch{-1, -1, forced_reason};
        } else {
            int arch = arch_override();
            if (arch == 0) {
                const cudaError_t status = query_arch(device, &arch);
                if (status != cudaSuccess) {
                    *dispatch = Dispatch{-1, -1, cudaGetErrorName(status)};
                    return status;
                }
            }
            const char* why = nullptr;
            const int image = select_image(images_, count_, arch, &why);
            slot.dispatch = Dispatch{-1, -1, why};
            if (image >= 0) load_into(slot, image);
            if (slot.kernel != nullptr) {
                slot.dispatch = Dispatch{image, images_[image].variant, why};
            } else if (image >= 0) {
                slot.dispatch.why = load_failure_reason(images_[image], slot.load_status);
            }
        }
        slot.ready.store(true, std::memory_order_release);
    }
    *kernel = slot.kernel;
    *dispatch = slot.dispatch;
    if (library != nullptr) *library = slot.library;
    return cudaSuccess;
}

void KernelTable::load_into(Slot& slot, int image) {
    slot.chosen_image = image;
    // A cudaLibrary_t serves every device: reuse what another device already loaded (or learned
    // cannot load), so each image is loaded at most once per process.
    for (const Slot& other : slots_) {
        if (&other == &slot || !other.ready.load(std::memory_order_relaxed) ||
            other.chosen_image != image) {
            continue;
        }
        slot.kernel = other.kernel;
        slot.library = other.library;
        slot.load_status = other.load_status;
        return;
    }
    const Image& chosen = images_[image];
    cudaLibrary_t library = nullptr;
    cudaError_t status =
        cudaLibraryLoadData(&library, chosen.data, nullptr, nullptr, 0, nullptr, nullptr, 0);
    cudaKernel_t kernel = nullptr;
    if (status == cudaSuccess) {
        status = cudaLibraryGetKernel(&kernel, library, chosen.symbol);
        if (status != cudaSuccess) {
            cudaLibraryUnload(library);
            library = nullptr;
        }
    }
    if (status != cudaSuccess) {
        // The fallback handles this failure; it must not surface in the user's next
        // cudaGetLastError().
        cudaGetLastError();
        kernel = nullptr;
    }
    slot.kernel = kernel;
    slot.library = library;
    slot.load_status = status;
}

cudaError_t KernelTable::raise_dynamic_shared_limit(int device, cudaKernel_t kernel,
                                                    const void* original, std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(INT_MAX)) return cudaErrorInvalidValue;
    const int value = static_cast<int>(bytes);
    const std::lock_guard<std::mutex> lock(mutex_);
    const cudaError_t status =
        kernel != nullptr
            ? cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              value, device)
            : cudaFuncSetAttribute(original, cudaFuncAttributeMaxDynamicSharedMemorySize, value);
    if (status == cudaSuccess && device >= 0 && device < max_devices) {
        std::atomic<std::size_t>& allowed = slots_[device].shared_allowed;
        if (bytes > allowed.load(std::memory_order_relaxed)) {
            allowed.store(bytes, std::memory_order_relaxed);
        }
    }
    return status;
}

}  // namespace optiml::rt
