// The cache key: SHA-256 over tagged inputs, computed without a GPU.
// docs/caching.md lists every input; changing any of them changes the key.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace optiml::cache {

inline constexpr int kSchemaVersion = 1;

struct SourceFile {
    std::string relative_path;  // as included / relative to the spec file (never absolute)
    std::string contents;
};

// A data file a spec fills an input from: its path (relative to the spec file, as the spec
// writes it) and the lowercase hex SHA-256 of its bytes.
struct DataFileDigest {
    std::string relative_path;
    std::string sha256;
};

// The LLM configuration that changes a tuning's result (docs/caching.md): the model the
// transformation tree asks, and the prompt templates it asks with ("propose@1 <sha256 of the
// text>"). Never the endpoint's address or key: see key_inputs() in driver/identity/kernel_key.h.
struct LlmKeyInputs {
    bool takes_part = false;  // false: no LLM took part (hashed only when true)
    std::string model;
    std::vector<std::string> prompts;
};

struct KeyInputs {
    std::string optiml_version;       // e.g. "0.1.0"
    std::string normalized_spec;      // spec::Spec::normalized.dump()
    std::vector<SourceFile> sources;  // kernel source first, then every included header
    std::string nvrtc_version;        // "13.0"
    std::vector<std::string> nvrtc_options;
    std::string arch;  // "sm_90"
    // A spec's comparison function (check.compare) first, then every header it includes; empty
    // without one (hashed only when present, so keys of specs without one did not change).
    std::vector<SourceFile> compare_sources;
    // The compiler of the variants when it is not NVRTC: "nvcc" and nvcc's version ("13.0.88");
    // empty for NVRTC (hashed only when set, so NVRTC keys did not change).
    std::string compiler;
    std::string compiler_version;
    // The spec's "file" fills, in the spec's order (arguments, then constants); empty without
    // any (hashed only when present, so other keys did not change).
    std::vector<DataFileDigest> data_files;
    // The spec's input generators ("generator" fills), each its source first, then every header
    // it includes; empty without any (hashed only when present, so other keys did not change).
    std::vector<std::vector<SourceFile>> generator_sources;
    // The user's target's own device flags, as the build compiles the kernel (-D, -std=, -G,
    // --use_fast_math, -Xptxas=..., include folders inside the project relative to its source
    // root, -rdc=true), in order; empty without them (hashed only when present, so keys of builds
    // that pass none did not change).
    std::vector<std::string> build_options;
    // Set only when an LLM takes part in the tuning (hashed only then, so keys of tunings
    // without one did not change).
    LlmKeyInputs llm;
};

// Lowercase hex SHA-256 (64 chars). Each field is hashed as tag, length, bytes.
std::string compute_key(const KeyInputs& inputs);

// Lowercase hex SHA-256 over (tag, value) fields in order, each hashed as compute_key's are:
// for keys of other things in the same scheme (compiled images).
using TaggedField = std::pair<std::string, std::string>;
std::string compute_tagged_key(const std::vector<TaggedField>& fields);

// Lowercase hex SHA-256 of arbitrary bytes.
std::string sha256_hex(const std::string& bytes);

}  // namespace optiml::cache
