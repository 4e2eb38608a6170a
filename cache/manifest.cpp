#include "cache/manifest.h"

#include "cache/key.h"
#include "cache/layout.h"

namespace optiml::cache::detail {

nlohmann::json manifest_to_store(const Entry& entry) {
    nlohmann::json manifest = entry.manifest.is_null() ? nlohmann::json::object() : entry.manifest;
    if (!manifest.is_object()) {
        throw CacheError("cache entry " + entry.key + ": the manifest must be a JSON object, not " +
                         std::string(manifest.type_name()));
    }
    nlohmann::json names = nlohmann::json::array();
    nlohmann::json hashes = nlohmann::json::object();
    for (const auto& [name, bytes] : entry.files) {  // std::map: already sorted by name
        if (!is_valid_file_name(name)) {
            throw CacheError("cache entry " + entry.key + ": file name '" + name +
                             "' is not allowed; use a plain name without '/' other than '" +
                             std::string(kManifestName) + "'");
        }
        names.push_back(name);
        hashes[name] = sha256_hex(bytes);
    }
    manifest["key"] = entry.key;
    manifest["files"] = std::move(names);
    manifest["sha256"] = std::move(hashes);
    return manifest;
}

std::string serialize_manifest(const nlohmann::json& manifest) {
    // Invalid UTF-8 in a tuner-supplied string (say, a captured compiler log) is replaced
    // rather than failing the whole write.
    return manifest.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace optiml::cache::detail
