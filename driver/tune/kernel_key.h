// What identifies one kernel's tuning result for one architecture: the cache key and the
// sources behind it (which also become the build system's depfile).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cache/key.h"
#include "driver/compile/include_scanner.h"
#include "driver/spec/spec.h"

namespace optiml::tune {

struct KernelSources {
    std::vector<compile::ScannedFile> files;  // kernel source first, then its local headers
    // The spec's comparison function (check.compare) first, then its local headers; or none.
    std::vector<compile::ScannedFile> compare_files;
    // The files the spec's "file" fills read, in the spec's order, with their SHA-256.
    struct DataFile {
        std::filesystem::path path;  // absolute
        cache::DataFileDigest digest;
    };
    std::vector<DataFile> data_files;
};

KernelSources scan_sources(const spec::Spec& spec);

cache::KeyInputs key_inputs(const spec::Spec& spec, const KernelSources& sources, int arch);

// What went into a key, for the manifest: versions, options, arch, each source's SHA-256.
nlohmann::json key_summary(const cache::KeyInputs& inputs);

std::string arch_name(int arch);  // 90 -> "sm_90"

}  // namespace optiml::tune
