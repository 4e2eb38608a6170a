#include "driver/cli/entry_selection.h"

#include <filesystem>

#include "cache/entry_manifest.h"
#include "driver/identity/kernel_key.h"
#include "driver/search/tree_json.h"
#include "driver/spec/spec.h"

namespace optiml::cli {
namespace {

std::vector<std::string> keys_of_spec(const cache::Store& store, const std::string& spec_path) {
    const spec::Spec spec = spec::load_spec(spec_path);
    const auto sources = identity::scan_sources(spec);
    std::vector<std::string> keys;
    for (const auto& key : store.keys()) {
        const auto entry = store.inspect(key);
        if (!entry) continue;
        const cache::EntryManifest manifest = cache::read_entry_manifest(*entry);
        if (manifest.name != spec.name) continue;
        if (cache::compute_key(identity::key_inputs(spec, sources, manifest.device.arch)) == key)
            keys.push_back(key);
    }
    if (keys.empty())
        throw cache::CacheError(
            "no entry in " + store.root().string() + " matches " + spec_path +
            " as its sources are now (tune it, or give a key: optiml cache ls)");
    return keys;
}

std::vector<std::string> keys_of_prefix(const cache::Store& store, const std::string& prefix) {
    std::vector<std::string> matches;
    for (const auto& k : store.keys())
        if (k.rfind(prefix, 0) == 0) matches.push_back(k);
    if (matches.size() != 1)
        throw cache::CacheError(std::to_string(matches.size()) + " entries match '" + prefix +
                                "'; give more of the key (optiml cache ls) or a spec file");
    return matches;
}

}  // namespace

std::vector<std::string> select_entries(const cache::Store& store, const std::string& target) {
    return std::filesystem::is_regular_file(target) ? keys_of_spec(store, target)
                                                    : keys_of_prefix(store, target);
}

report::SourceLookup path_sources(const cache::Entry& entry) {
    return [&entry](const std::string& id) -> std::optional<std::string> {
        const auto found = entry.files.find(search::path_source_file(id));
        if (found == entry.files.end()) return std::nullopt;
        return found->second;
    };
}

}  // namespace optiml::cli
