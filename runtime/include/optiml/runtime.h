// OptiML runtime shim: linked into users' programs by generated launchers.
// Picks, per device, which embedded variant of a kernel to run, loads it once (lazily,
// thread-safe) through the CUDA runtime's library API, and hands back a kernel to launch.
// Uses the CUDA runtime only. C++17, host code only: generated headers include it from plain
// C++ translation units too.
//
// Environment:
//   OPTIML_FORCE_ORIGINAL=1   every launcher runs the user's original kernel (read once per
//                             process, at the first launch); for benchmarks and debugging.
//   OPTIML_VERBOSE=1          at exit, a kernel with tuned variants that was never launched
//                             through its launcher says so on stderr (a leftover <<<>>> launch
//                             runs the original kernel); a launch at a size outside those a
//                             kernel was tuned at says so once. Debug builds (no NDEBUG) always do.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>

#include <cuda_runtime.h>

// Generated code declares its KernelTable with this: in C++20 the compiler then proves the table
// is constant-initialized (usable from other static initializers).
#if __cplusplus >= 202002L
#define OPTIML_CONSTINIT constinit
#else
#define OPTIML_CONSTINIT
#endif

namespace optiml::rt {

// Helpers that generated geometry expressions call. A zero divisor yields 0 instead of trapping,
// so that a launcher reports cudaErrorInvalidConfiguration rather than crashing the program.
constexpr long long ceil_div(long long a, long long b) {
    return b == 0 ? 0 : (a + b - 1) / b;
}
constexpr long long div(long long a, long long b) {
    return b == 0 ? 0 : a / b;
}
constexpr long long mod(long long a, long long b) {
    return b == 0 ? 0 : a % b;
}
constexpr long long min(long long a, long long b) {
    return a < b ? a : b;
}
constexpr long long max(long long a, long long b) {
    return a > b ? a : b;
}

// One embedded binary of a tuned variant.
struct Image {
    int arch;          // 90 for sm_90 (CUBIN) or compute_90 (PTX)
    bool is_ptx;       // false: CUBIN for exactly `arch`; true: PTX, JIT-compiled by the driver
    const void* data;  // CUBIN bytes, or NUL-terminated PTX text
    std::size_t size;
    const char* symbol;  // lowered (mangled) kernel name inside the image
    int variant;         // index of the launcher's variant (parameters -> geometry)
};

// The image a device of compute capability `device_arch` (major*10+minor) should run, or -1 for
// the user's original kernel. Order: a CUBIN of exactly that arch; else a CUBIN of the same major
// version and the highest arch not above it; else the PTX of the highest arch not above it; else
// -1. `why`, when not null, receives a static string saying which rule chose.
int select_image(const Image* images, std::size_t count, int device_arch, const char** why);

// A launch geometry as a generated launcher computes it, before it is checked.
struct Geometry {
    long long block[3];
    long long grid[3];
    long long shared_bytes;
};

// Converts `geometry` to launch arguments: cudaErrorInvalidConfiguration when a block or grid
// dimension is below 1 or does not fit dim3, or the shared memory size is negative.
inline cudaError_t launch_configuration(const Geometry& geometry, dim3* grid, dim3* block,
                                        std::size_t* shared_bytes) {
    constexpr long long largest = 0xffffffffLL;  // dim3 holds unsigned int
    for (int i = 0; i < 3; ++i) {
        if (geometry.block[i] < 1 || geometry.block[i] > largest || geometry.grid[i] < 1 ||
            geometry.grid[i] > largest) {
            return cudaErrorInvalidConfiguration;
        }
    }
    if (geometry.shared_bytes < 0) return cudaErrorInvalidConfiguration;
    *block = dim3(static_cast<unsigned int>(geometry.block[0]),
                  static_cast<unsigned int>(geometry.block[1]),
                  static_cast<unsigned int>(geometry.block[2]));
    *grid = dim3(static_cast<unsigned int>(geometry.grid[0]),
                 static_cast<unsigned int>(geometry.grid[1]),
                 static_cast<unsigned int>(geometry.grid[2]));
    *shared_bytes = static_cast<std::size_t>(geometry.shared_bytes);
    return cudaSuccess;
}

// Whether `geometry` is exactly the launch `grid`, `block`, `shared_bytes`: the drop-in
// launcher runs a tuned variant only for the launch the spec describes.
inline bool same_launch(const Geometry& geometry, dim3 grid, dim3 block, std::size_t shared_bytes) {
    const unsigned int grids[3] = {grid.x, grid.y, grid.z};
    const unsigned int blocks[3] = {block.x, block.y, block.z};
    for (int i = 0; i < 3; ++i) {
        if (geometry.grid[i] != static_cast<long long>(grids[i]) ||
            geometry.block[i] != static_cast<long long>(blocks[i])) {
            return false;
        }
    }
    return geometry.shared_bytes >= 0 &&
           static_cast<unsigned long long>(geometry.shared_bytes) == shared_bytes;
}

// Whether `block` (as a generated launcher computes it) is exactly the caller's `caller`: the
// drop-in form of a template kernel whose template arguments size its block picks the
// instantiation by it.
inline bool same_block(const long long block[3], dim3 caller) {
    return block[0] == static_cast<long long>(caller.x) &&
           block[1] == static_cast<long long>(caller.y) &&
           block[2] == static_cast<long long>(caller.z);
}

// A generated launcher that launches nothing: says once per `said` flag, on stderr,
// "optiml: <launcher>: block XxYxZ <why>; nothing launched (cudaErrorInvalidConfiguration)",
// and returns cudaErrorInvalidConfiguration. Lock-free; never allocates.
cudaError_t refuse_launch(std::atomic<bool>& said, const char* launcher, dim3 block,
                          const char* why) noexcept;

// What a device runs: for generated `optiml::<name>_dispatch(device)` queries and logs.
struct Dispatch {
    int image;        // -1: original kernel
    int variant;      // -1: original kernel
    const char* why;  // which dispatch rule chose it (or why a load fell back)
};

// Test hook: make dispatch decisions as if every device had compute capability `arch`
// (major*10+minor, e.g. 90); 0 turns it off. Takes effect for devices a KernelTable has not
// resolved yet (a table resolves each device once).
void set_arch_override(int arch);
int arch_override();

// The calling thread's current device, as cudaGetDevice gives it. Where the process sees a
// single device (one GPU per process is the common case) that can only be device 0, and the
// launch path skips cudaGetDevice: a call into the runtime and the driver's current-context
// lookup on every launch. The count is asked once, at the first call.
namespace detail {
extern std::atomic<int> visible_devices;  // 0 until counted, or when counting failed
cudaError_t current_device_counted(int* device) noexcept;
}  // namespace detail
inline cudaError_t current_device(int* device) noexcept {
    if (detail::visible_devices.load(std::memory_order_relaxed) == 1) {
        *device = 0;
        return cudaSuccess;
    }
    return detail::current_device_counted(device);
}

// True when the environment has OPTIML_FORCE_ORIGINAL=1 (read once per process).
bool force_original();
// True when the environment has OPTIML_VERBOSE set to anything but "" or "0" (read once).
bool verbose();

// The dispatch state of one kernel's launcher: which image each device runs, loaded on first
// use. Generated code keeps one in static storage (constant-initialized, so launchers work even
// from other static initializers). Libraries are never unloaded: the CUDA driver releases them
// with the process, and unloading from a static destructor would race cudart's own teardown.
class KernelTable {
  public:
    static constexpr int max_devices = 64;
    // Dynamic shared memory a kernel may use without opting in (cudaFuncAttributeMaxDynamic...).
    static constexpr std::size_t default_dynamic_shared_limit = 48 * 1024;

    // `of_original`: the images are the user's original kernel itself (compiled by OptiML for a
    // kernel that stays among host code, where the program's own translation unit may not
    // instantiate it): OPTIML_FORCE_ORIGINAL does not turn them off.
    constexpr KernelTable(const Image* images, std::size_t count, bool of_original = false) noexcept
        : images_(images), count_(count), of_original_(of_original) {}
    KernelTable(const KernelTable&) = delete;
    KernelTable& operator=(const KernelTable&) = delete;

    // The kernel `device` runs: `*kernel` is a library kernel, or nullptr for the user's original
    // kernel. The first call per device chooses (select_image) and loads the image; when loading
    // fails, the device runs the original kernel and `dispatch->why` names the cudaError. Later
    // calls are a lock-free lookup. Returns an error only when the device cannot be queried
    // (then `dispatch->why` is the error's name). `library`, when not null, receives the loaded
    // library (nullptr for the original kernel): for cudaLibraryGetGlobal.
    cudaError_t resolve(int device, cudaKernel_t* kernel, Dispatch* dispatch,
                        cudaLibrary_t* library = nullptr) {
        if (device >= 0 && device < max_devices) {
            const Slot& slot = slots_[device];
            if (slot.ready.load(std::memory_order_acquire)) {
                *kernel = slot.kernel;
                *dispatch = slot.dispatch;
                if (library != nullptr) *library = slot.library;
                return cudaSuccess;
            }
        }
        return resolve_first(device, kernel, dispatch, library);
    }

    // Lets the kernel `device` runs (`kernel` from resolve(); nullptr: `original`) use `bytes` of
    // dynamic shared memory; above 48 KiB that needs an opt-in, set once per device and size.
    cudaError_t allow_dynamic_shared_memory(int device, cudaKernel_t kernel, const void* original,
                                            std::size_t bytes) {
        if (bytes <= default_dynamic_shared_limit) return cudaSuccess;
        if (device >= 0 && device < max_devices &&
            bytes <= slots_[device].shared_allowed.load(std::memory_order_relaxed)) {
            return cudaSuccess;
        }
        return raise_dynamic_shared_limit(device, kernel, original, bytes);
    }

    // Notes a call of a generated launcher, failed or not (for UnusedLauncherReport). Written
    // once: a shared counter's read-modify-write on every launch would cost a locked
    // instruction, and the cache line bouncing between threads that launch at once.
    void note_launch() noexcept {
        if (!launched_.load(std::memory_order_relaxed))
            launched_.store(true, std::memory_order_relaxed);
    }
    bool launched() const noexcept { return launched_.load(std::memory_order_relaxed); }
    bool has_tuned_images() const noexcept { return count_ > 0; }

  private:
    struct Slot {
        std::atomic<bool> ready{false};  // written last (release): the fields below are final
        cudaKernel_t kernel = nullptr;
        cudaLibrary_t library = nullptr;
        Dispatch dispatch{-1, -1, nullptr};
        int chosen_image = -1;                  // select_image's choice, even when its load failed
        cudaError_t load_status = cudaSuccess;  // of chosen_image, shared with other devices
        std::atomic<std::size_t> shared_allowed{default_dynamic_shared_limit};
    };

    cudaError_t resolve_first(int device, cudaKernel_t* kernel, Dispatch* dispatch,
                              cudaLibrary_t* library);
    void load_into(Slot& slot, int image);
    cudaError_t raise_dynamic_shared_limit(int device, cudaKernel_t kernel, const void* original,
                                           std::size_t bytes);

    const Image* images_;
    std::size_t count_;
    bool of_original_;
    std::atomic<bool> launched_{false};
    std::mutex mutex_;  // first resolution per device only; never on the launch path
    Slot slots_[max_devices]{};
};

// Dispatch by problem size: a launch outside the sizes a kernel was tuned at runs the variant of
// the nearest tuned size; this says so once, on stderr, with OPTIML_VERBOSE or `always`
// (generated code passes true in builds without NDEBUG). Inside the tuned sizes it is two
// comparisons: no lock, no allocation.
class UntunedSizeNote {
  public:
    // `axis`: how a launch's size is computed ("M * N * K"); `arch`: the variant's ("sm_90").
    constexpr UntunedSizeNote(const char* launcher, const char* axis, const char* arch,
                              double smallest, double largest, bool always) noexcept
        : launcher_(launcher),
          axis_(axis),
          arch_(arch),
          smallest_(smallest),
          largest_(largest),
          always_(always) {}
    UntunedSizeNote(const UntunedSizeNote&) = delete;
    UntunedSizeNote& operator=(const UntunedSizeNote&) = delete;

    void note(double size) noexcept {
        if (size >= smallest_ && size <= largest_) return;
        say(size);
    }

  private:
    void say(double size) noexcept;

    const char* launcher_;
    const char* axis_;
    const char* arch_;
    double smallest_, largest_;
    bool always_;
    std::atomic<bool> said_{false};
};

// The one cheap sign of a leftover <<<>>> launch: at exit, a kernel with tuned variants that no
// generated launcher ever launched. A program may also simply not have run that kernel, so the
// line appears only when asked for (OPTIML_VERBOSE, or `always`: generated code passes true in
// builds without NDEBUG). Generated code keeps one beside its KernelTable.
class UnusedLauncherReport {
  public:
    constexpr UnusedLauncherReport(const KernelTable& table, const char* name, bool always) noexcept
        : table_(table), name_(name), always_(always) {}
    UnusedLauncherReport(const UnusedLauncherReport&) = delete;
    UnusedLauncherReport& operator=(const UnusedLauncherReport&) = delete;
    ~UnusedLauncherReport();

  private:
    const KernelTable& table_;
    const char* name_;
    bool always_;
};

}  // namespace optiml::rt
