// The hashing scheme is documented field by field in docs/caching.md; keep the two in step,
// and bump kSchemaVersion whenever the bytes fed to the hash change.
#include "cache/key.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "cache/detail/sha256.h"
#include "cache/store.h"

namespace optiml::cache {

namespace {

// One field: the tag, a NUL that ends it, the value's byte length as 8-byte little-endian,
// then the value. Length prefixes make the encoding unambiguous, so no two different
// inputs can produce the same byte stream.
void hash_field(detail::Sha256& hash, std::string_view tag, std::string_view value) {
    hash.update(tag);
    hash.update(std::string_view("\0", 1));
    std::array<char, 8> length{};
    auto size = static_cast<std::uint64_t>(value.size());
    for (char& byte : length) {
        byte = static_cast<char>(size & 0xffU);
        size >>= 8U;
    }
    hash.update(std::string_view(length.data(), length.size()));
    hash.update(value);
}

void check_source_path(const SourceFile& source) {
    if (source.relative_path.empty()) {
        throw CacheError(
            "cache key: a source file has an empty path; give each source its path "
            "relative to the spec file");
    }
    if (source.relative_path.front() == '/') {
        throw CacheError("cache key: source path '" + source.relative_path +
                         "' is absolute; give it relative to the spec file so that the key is the "
                         "same on every machine and checkout");
    }
}

// A main file and the headers it includes, as "<tag>.path" and "<tag>.contents" fields. The
// main file stays first; the headers are sorted so that the order in which an include scanner
// happens to find them does not matter.
void hash_sources(detail::Sha256& hash, const std::string& tag,
                  const std::vector<SourceFile>& sources) {
    if (sources.empty()) return;
    std::vector<const SourceFile*> headers;
    for (auto it = sources.begin() + 1; it != sources.end(); ++it) headers.push_back(&*it);
    std::sort(headers.begin(), headers.end(), [](const SourceFile* a, const SourceFile* b) {
        if (a->relative_path != b->relative_path) return a->relative_path < b->relative_path;
        return a->contents < b->contents;
    });
    const auto hash_one = [&](const SourceFile& source) {
        hash_field(hash, tag + ".path", source.relative_path);
        hash_field(hash, tag + ".contents", source.contents);
    };
    hash_one(sources.front());
    for (const SourceFile* header : headers) hash_one(*header);
}

}  // namespace

std::string compute_key(const KeyInputs& inputs) {
    if (inputs.sources.empty()) {
        throw CacheError("cache key: no sources given; the kernel source must come first");
    }
    for (const SourceFile& source : inputs.sources) check_source_path(source);
    for (const SourceFile& source : inputs.compare_sources) check_source_path(source);
    for (const auto& generator : inputs.generator_sources)
        for (const SourceFile& source : generator) check_source_path(source);

    detail::Sha256 hash;
    hash_field(hash, "schema", std::to_string(kSchemaVersion));
    hash_field(hash, "optiml_version", inputs.optiml_version);
    hash_field(hash, "spec", inputs.normalized_spec);
    hash_sources(hash, "source", inputs.sources);
    hash_field(hash, "nvrtc_version", inputs.nvrtc_version);
    for (const std::string& option : inputs.nvrtc_options) hash_field(hash, "nvrtc_option", option);
    hash_field(hash, "arch", inputs.arch);
    hash_sources(hash, "compare", inputs.compare_sources);
    if (!inputs.compiler.empty()) {
        hash_field(hash, "compiler", inputs.compiler);
        hash_field(hash, "compiler_version", inputs.compiler_version);
    }
    for (const DataFileDigest& data : inputs.data_files) {
        check_source_path({data.relative_path, {}});
        hash_field(hash, "data.path", data.relative_path);
        hash_field(hash, "data.sha256", data.sha256);
    }
    for (const std::string& option : inputs.build_options) hash_field(hash, "build_option", option);
    if (inputs.llm.takes_part) {
        hash_field(hash, "llm.model", inputs.llm.model);
        for (const std::string& prompt : inputs.llm.prompts) hash_field(hash, "llm.prompt", prompt);
    }
    for (const auto& generator : inputs.generator_sources)
        hash_sources(hash, "generator", generator);
    return hash.hex_digest();
}

std::string compute_tagged_key(const std::vector<TaggedField>& fields) {
    detail::Sha256 hash;
    for (const auto& [tag, value] : fields) hash_field(hash, tag, value);
    return hash.hex_digest();
}

}  // namespace optiml::cache
