// Test helpers: a private temporary folder and entries whose bytes follow from a name.
#pragma once

#include <filesystem>
#include <random>
#include <string>

#include <unistd.h>

#include "cache/key.h"
#include "cache/store.h"

namespace optiml::cache::testing {

// A fresh folder under the system temp dir, removed with everything in it at scope exit.
class ScratchDir {
  public:
    ScratchDir() {
        std::random_device random;
        path_ =
            std::filesystem::temp_directory_path() /
            ("optiml-cache-test-" + std::to_string(::getpid()) + "-" + std::to_string(random()));
        std::filesystem::create_directories(path_);
    }
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

// An entry like the tuner's: a manifest plus a CUBIN and PTX, all derived from `name`.
// `payload_bytes` pads the binary so that torn writes would be visible.
inline Entry sample_entry(const std::string& name, std::size_t payload_bytes = 256) {
    Entry entry;
    entry.key = sha256_hex("entry:" + name);
    entry.manifest = {{"kernel", name},
                      {"arch", "sm_90"},
                      {"best", {{"block_size_x", 256}, {"items_per_thread", 4}}},
                      {"times_ms", {0.125, 0.25}},
                      {"files", {{"cubin", "kernel.cubin"}, {"ptx", "kernel.ptx"}}}};
    std::string cubin = "CUBIN(" + name + ")";
    while (cubin.size() < payload_bytes) cubin += static_cast<char>('a' + cubin.size() % 26);
    entry.files["kernel.cubin"] = cubin;
    entry.files["kernel.ptx"] = ".version 8.0 // " + name;
    return entry;
}

}  // namespace optiml::cache::testing
