// The file liboptiml-activity.so writes at the exit of a profiled program, and the few helpers
// around it. Plain C++ with no CUDA and no JSON library, so the injected library stays small and
// the driver's tests can write real files through the same code (driver/profile reads them).
//
// Format (one JSON object, version 1):
//   {"format": "optiml-activity", "version": 1, "pid": 4242, "error": null or "why",
//    "dropped_records": 0,
//    "launches": [{"name": "_Z5saxpyifPKfPf", "demangled": "saxpy(int, float, ...)",
//                  "start_ns": 1, "end_ns": 2, "grid": [x, y, z], "block": [x, y, z],
//                  "device": 0}, ...]}
// `demangled` is "" for names that are not mangled (extern "C" kernels). Timestamps are CUPTI's
// (nanoseconds); a record flushed before its kernel finished has start_ns or end_ns 0.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::profile::activity {

inline constexpr std::string_view kFormatName = "optiml-activity";
inline constexpr int kFormatVersion = 1;

// Environment variable naming the file to write; "%p" in it becomes the process id, so each
// process of a program that starts others writes its own file.
inline constexpr const char* kOutputVariable = "OPTIML_ACTIVITY_OUTPUT";

struct LaunchRecord {
    std::string name;            // as CUPTI reports it (mangled for C++ kernels)
    std::string demangled_name;  // "" when `name` is not a mangled name
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::array<std::uint32_t, 3> grid{1, 1, 1};
    std::array<std::uint32_t, 3> block{1, 1, 1};
    std::uint32_t device = 0;
};

struct ActivityFile {
    long pid = 0;
    std::string error;  // why recording failed in that process; "" when it worked
    std::uint64_t dropped_records = 0;
    std::vector<LaunchRecord> launches;
};

std::string to_json_text(const ActivityFile& file);

// Appends `text` as a JSON string, and `dim` as a JSON array of 3 numbers (for capture_file.cpp).
void append_json_string(std::string& out, std::string_view text);
void append_json_dim3(std::string& out, const std::array<std::uint32_t, 3>& dim);
// Appends a file's opening: {"format": ..., "version": ..., "pid": ..., "error": null or "...".
void append_json_header(std::string& out, std::string_view format, int version, long pid,
                        const std::string& error);

// abi::__cxa_demangle of an Itanium-mangled name; "" for anything else.
std::string demangle(const std::string& name);

// Replaces each "%p" in `path_template` by `pid`.
std::string expand_pid(std::string_view path_template, long pid);

}  // namespace optiml::profile::activity
