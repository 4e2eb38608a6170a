// The file liboptiml-activity.so writes at the exit of a captured program (`optiml capture`):
// the first launch of each kernel with its geometry and the raw bytes of every parameter, each
// parameter that holds a device pointer with the extent of the allocation it points into, and
// optionally a snapshot of that allocation's bytes from the pointer on, taken just before the
// launch. Plain C++ with no CUDA and no JSON library, like activity_file.h; driver/profile
// reads it (activity_reader.h).
//
// Format (one JSON object, version 1):
//   {"format": "optiml-capture", "version": 1, "pid": 4242, "error": null or "why",
//    "launches": [{"name": "_Z5saxpyifPKfPf", "demangled": "saxpy(int, float, ...)",
//                  "grid": [x, y, z], "block": [x, y, z], "shared_memory_bytes": 0,
//                  "error": null or why the parameters are unknown,
//                  "snapshot_error": null or why snapshots are missing,
//                  "parameters": [{"offset": 0, "size": 4, "bytes": "00100000",
//                                  "allocation": null or {"offset": 0, "size": 4096},
//                                  "snapshot": null or "/abs/snapshot-4242-0-2.bin"}, ...],
//                  "shapes": [{"grid": [x, y, z], "block": [x, y, z], "shared_memory_bytes": 0,
//                              "values": ["00100000", null, ...], "launches": 12}, ...],
//                  "other_launches": 0},
//                 ...]}
// `bytes` is the parameter's value as lowercase hex, in memory order (little-endian numbers).
// `allocation.offset` is where the pointer points within its allocation and `allocation.size` the
// allocation's size, so size - offset bytes lie from the pointer to the allocation's end; a
// snapshot holds exactly those bytes. `shapes` lists every distinct geometry and set of values of
// the parameters that are not device pointers (`values`: hex, null for a pointer) the kernel was
// launched with, with how many launches had each; "shapes" and "other_launches" may be absent
// (a file of an earlier OptiML: the first launch alone).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace optiml::profile::activity {

inline constexpr std::string_view kCaptureFormatName = "optiml-capture";
inline constexpr int kCaptureFormatVersion = 1;

// The file to write ("%p" becomes the process id); set, the library also captures launches.
inline constexpr const char* kCaptureOutputVariable = "OPTIML_CAPTURE_OUTPUT";
// A folder; set, the library snapshots the allocations pointer parameters point into.
inline constexpr const char* kSnapshotFolderVariable = "OPTIML_CAPTURE_SNAPSHOTS";
// The most bytes one snapshot may hold (decimal); larger allocations are not snapshotted.
inline constexpr const char* kSnapshotLimitVariable = "OPTIML_CAPTURE_SNAPSHOT_LIMIT";
inline constexpr std::uint64_t kDefaultSnapshotLimit = std::uint64_t{1} << 30;

struct DeviceAllocation {
    std::uint64_t offset = 0;  // of the pointer from the allocation's start
    std::uint64_t size = 0;    // of the whole allocation
    std::uint64_t bytes_from_pointer() const { return size > offset ? size - offset : 0; }
};

struct CapturedParameter {
    std::uint64_t offset = 0;  // in the kernel's parameter buffer
    std::uint64_t size = 0;
    std::string bytes;                           // the value, size bytes
    std::optional<DeviceAllocation> allocation;  // set when the value points into device memory
    std::string snapshot;                        // "" when none was taken
};

// One distinct way the program launched a kernel: the geometry and the value of every parameter
// that does not point into device memory (a pointer's value differs from run to run and says
// nothing of the problem's size). The first launch is a kernel's first shape.
struct LaunchShape {
    std::array<std::uint32_t, 3> grid{1, 1, 1};
    std::array<std::uint32_t, 3> block{1, 1, 1};
    std::uint64_t shared_memory_bytes = 0;
    std::vector<std::string> values;  // per parameter: its bytes, "" for a device pointer
    std::uint64_t launches = 0;       // how many launches had this shape
    bool operator==(const LaunchShape& other) const {
        return grid == other.grid && block == other.block &&
               shared_memory_bytes == other.shared_memory_bytes && values == other.values;
    }
};
// Distinct shapes kept per kernel; launches of further shapes are only counted.
inline constexpr std::size_t kMaxLaunchShapes = 64;

struct CapturedLaunch {
    std::string name;            // as the driver names the function (mangled for C++ kernels)
    std::string demangled_name;  // "" when `name` is not a mangled name
    std::array<std::uint32_t, 3> grid{1, 1, 1};
    std::array<std::uint32_t, 3> block{1, 1, 1};
    std::uint64_t shared_memory_bytes = 0;
    std::string error;           // why `parameters` is empty or incomplete; "" when complete
    std::string snapshot_error;  // why snapshots were not taken; "" when none failed
    std::vector<CapturedParameter> parameters;
    // Every distinct shape the kernel was launched with, in the order first seen (empty where
    // the parameters could not be read); launches of shapes beyond kMaxLaunchShapes.
    std::vector<LaunchShape> shapes;
    std::uint64_t other_launches = 0;
};

// The shape of `launch` as captured (one launch of its own; its `shapes` are not read): the
// geometry, and the bytes of each parameter that points into no device allocation.
LaunchShape shape_of(const CapturedLaunch& launch);

// Counts `shape` among `launch`'s shapes: one more launch of a shape seen before, a new shape
// while fewer than kMaxLaunchShapes are kept, else one more of the others.
void count_shape(CapturedLaunch& launch, LaunchShape shape);

struct CaptureFile {
    long pid = 0;
    std::string error;  // why capturing failed in that process; "" when it worked
    std::vector<CapturedLaunch> launches;
};

std::string to_capture_json_text(const CaptureFile& file);

// Where each parameter lies in a kernel's parameter buffer, or why that is unknown.
struct ParameterLayout {
    std::vector<std::pair<std::size_t, std::size_t>> parameters;  // offset, size
    std::string error;
};

// The layout from a kernel's C++ signature (its demangled name), for a launch through
// cudaLaunchKernel, which names the kernel by its host stub alone: pointers and the built-in
// scalar types, each aligned to its size as the parameter buffer lays them out. `error` says why
// not for an extern "C" kernel (no signature) or a parameter of another type (a struct).
ParameterLayout signature_layout(const std::string& demangled);

// Lowercase hex of `bytes` and back; from_hex returns nullopt for text that is not hex pairs.
std::string to_hex(std::string_view bytes);
std::optional<std::string> from_hex(std::string_view hex);

}  // namespace optiml::profile::activity
