#include "cache/detail/manifest.h"

#include "cache/detail/layout.h"
#include "cache/key.h"

namespace optiml::cache::detail {

std::optional<std::vector<std::string>> referenced_file_names(const nlohmann::json& manifest) {
    std::vector<std::string> names;
    auto files = manifest.find("files");
    if (files == manifest.end()) return names;
    if (!files->is_object() && !files->is_array()) return std::nullopt;
    for (const nlohmann::json& name : *files) {  // an object's values or an array's elements
        if (!name.is_string()) return std::nullopt;
        names.push_back(name.get<std::string>());
    }
    return names;
}

nlohmann::json manifest_to_store(const Entry& entry) {
    const std::string where = "cache entry " + entry.key + ": ";
    nlohmann::json manifest = entry.manifest.is_null() ? nlohmann::json::object() : entry.manifest;
    if (!manifest.is_object()) {
        throw CacheError(where + "the manifest must be a JSON object, not " +
                         std::string(manifest.type_name()));
    }
    nlohmann::json hashes = nlohmann::json::object();
    for (const auto& [name, bytes] : entry.files) {
        if (!is_valid_file_name(name)) {
            throw CacheError(where + "file name '" + name +
                             "' is not allowed; use a plain name without '/' other than '" +
                             std::string(kManifestName) + "'");
        }
        hashes[name] = sha256_hex(bytes);
    }
    std::optional<std::vector<std::string>> referenced = referenced_file_names(manifest);
    if (!referenced) {
        throw CacheError(where +
                         "manifest field \"files\" must map roles to file names or list file "
                         "names (strings)");
    }
    for (const std::string& name : *referenced) {
        if (!entry.files.contains(name)) {
            throw CacheError(where + "manifest field \"files\" names '" + name +
                             "' but the entry has no such file; add it to Entry::files");
        }
    }
    manifest["key"] = entry.key;
    manifest["sha256"] = std::move(hashes);
    return manifest;
}

std::string serialize_manifest(const nlohmann::json& manifest) {
    // Invalid UTF-8 in a tuner-supplied string (say, a captured compiler log) is replaced
    // rather than failing the whole write.
    return manifest.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace optiml::cache::detail
