// What identifies one kernel's tuning result for one architecture: the cache key and the
// sources behind it (which also become the build system's depfile).
#pragma once

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cache/key.h"
#include "cache/store.h"
#include "driver/compile/image_cache.h"
#include "driver/compile/include_scanner.h"
#include "driver/spec/spec.h"

namespace optiml::identity {

// What of the kernel's files can change its device code (source/device_code.h): each file with
// the bodies of host-only functions left out (what the key hashes), every name those texts use,
// and whether they include a header of the toolkit or the system beyond the plain C and CUDA
// runtime ones (one that may read NDEBUG).
struct DeviceReading {
    std::vector<std::string> texts;
    std::set<std::string> names;
    bool reads_toolkit_library = false;
};

struct KernelSources {
    std::vector<compile::ScannedFile> files;  // kernel source first, then its local headers
    // The spec's comparison function (check.compare) first, then its local headers; or none.
    std::vector<compile::ScannedFile> compare_files;
    // Each of the spec's input generators (spec.generators' order): its source first, then its
    // local headers.
    std::vector<std::vector<compile::ScannedFile>> generator_files;
    // The files the spec's "file" fills read, in the spec's order, with their SHA-256.
    struct DataFile {
        std::filesystem::path path;  // absolute
        cache::DataFileDigest digest;
    };
    std::vector<DataFile> data_files;
    DeviceReading device;  // of `files`, read once: the key and the build line use it
};

KernelSources scan_sources(const spec::Spec& spec);

// The build's flags (spec::TargetFlags::key_options) split by whether they can change the device
// code: a -D/-U of a name the device code never reads (nor a header of the toolkit it includes),
// and an -I (the headers it finds are hashed one by one), are left out of the key; -G, -lineinfo,
// --use_fast_math, -rdc, -maxrregcount and the rest stay. docs/caching.md lists the rule.
struct DeviceOptions {
    std::vector<std::string> kept;
    std::vector<std::string> left_out;
};
DeviceOptions device_options(const std::vector<std::string>& key_options,
                             const DeviceReading& reading);

// One digest for the kernel's local headers (the source itself is hashed with each compile
// request): what image keys hold for them.
std::string headers_digest(const KernelSources& sources);

// `llm` from tune::llm_key_inputs() (tune/llm_settings.h); the default: no LLM takes part.
// `images`, when given, is where the compiler choice's probe is looked up and kept
// (compiler_choice.h): a build passes its local cache's, so that a run after the first compiles
// nothing to compute a key.
cache::KeyInputs key_inputs(const spec::Spec& spec, const KernelSources& sources, int arch,
                            cache::LlmKeyInputs llm = {}, compile::ImageCache* images = nullptr);

// The same result stored under the key of the same inputs without the LLM (`base_key`,
// `base_summary` its key_summary): builds without an endpoint are then served the verified winner
// the LLM helped find. The manifest records the key it was tuned under ("tuned_with_llm").
cache::Entry llm_entry_for_base_key(const cache::Entry& entry, const std::string& base_key,
                                    const nlohmann::json& base_summary);

// What went into a key, for the manifest: versions, options, arch, each source's SHA-256.
nlohmann::json key_summary(const cache::KeyInputs& inputs);

std::string arch_name(int arch);  // 90 -> "sm_90"

}  // namespace optiml::identity
