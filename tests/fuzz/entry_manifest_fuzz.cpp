// The cache's entry reader and its typed manifest: the bytes are an entry's manifest.json, read as
// a build reads a seed's or the local cache's entry (cache/store.h: the manifest, its "key" and
// "sha256", the files it lists checked against their digests), then the signature a seed's entry
// must carry (cache/trust.h) and the typed record (cache/entry_manifest.h). The committed seed
// entries' kernel files lie beside the manifest, so that mutations of their manifests reach past
// the digests. A bad entry must be a CacheError naming the entry's file (DamagedEntryError), the
// seed (UntrustedEntryError) or the manifest's file and field (read_entry_manifest); anything
// else is a finding, as is a record its own writer cannot give back to its reader unchanged.
#include "cache/detail/layout.h"
#include "cache/entry_manifest.h"
#include "cache/store.h"
#include "cache/trust.h"
#include "fuzz_support.h"

#include <filesystem>
#include <memory>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;
using namespace optiml;

// A key that names no seed entry: the folder of a manifest whose "key" is none of theirs.
const std::string kOtherKey(64, 'a');

struct Seeds {
    fs::path root;               // a read-only cache folder holding every seed's files
    std::set<std::string> keys;  // the seed entries' keys (each a folder under root)
    cache::TrustedKeys trusted;  // every seed's trusted-keys file
    std::unique_ptr<cache::Store> store;
};

// The committed seed caches' entries, their files but not their manifests, under one root.
const Seeds& seeds() {
    static const std::unique_ptr<Seeds> seeds = [] {
        auto made = std::make_unique<Seeds>();
        made->root = fuzz::scratch_folder() / "entry_manifest";
        const fs::path examples = fs::path(OPTIML_SOURCE_DIR) / "examples";
        for (const auto& example : fs::directory_iterator(examples)) {
            const fs::path seed = example.path() / "optiml-seed";
            if (!fs::is_directory(seed / "entries")) continue;
            made->trusted.add_file(seed / cache::kTrustedKeysFileName);
            for (const auto& file : fs::recursive_directory_iterator(seed / "entries")) {
                if (!file.is_regular_file() ||
                    file.path().filename() == cache::detail::kManifestName)
                    continue;
                const std::string key = file.path().parent_path().filename().string();
                made->keys.insert(key);
                const fs::path folder = cache::detail::entry_dir(made->root, key);
                fs::create_directories(folder);
                fs::copy_file(file.path(), folder / file.path().filename(),
                              fs::copy_options::overwrite_existing);
            }
        }
        fs::create_directories(cache::detail::entry_dir(made->root, kOtherKey));
        made->store = std::make_unique<cache::Store>(made->root, /*read_only=*/true);
        return made;
    }();
    return *seeds;
}

// The seed key the manifest claims ("key": "<64 hex digits>"), else kOtherKey; found without
// parsing, so that a manifest the reader rejects still lands beside its seed's files.
std::string folder_key(std::string_view text, const std::set<std::string>& keys) {
    for (std::size_t at = text.find("\"key\""); at != std::string_view::npos;
         at = text.find("\"key\"", at + 1)) {
        const std::size_t quote = text.find('"', text.find(':', at) + 1);
        if (quote == std::string_view::npos || quote + 65 > text.size()) break;
        const std::string key(text.substr(quote + 1, 64));
        if (keys.contains(key)) return key;
    }
    return kOtherKey;
}

void require_named(const std::string& message, const std::string& name, const char* what) {
    if (message.find(name) == std::string::npos)
        fuzz::finding(std::string(what) + " that does not name " + name + ": " + message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const Seeds& s = seeds();
    const std::string_view text = fuzz::as_text(data, size);
    const std::string key = folder_key(text, s.keys);
    const fs::path folder = cache::detail::entry_dir(s.root, key);
    fuzz::write_input(
        (folder / cache::detail::kManifestName).lexically_relative(fuzz::scratch_folder()), text);

    std::optional<cache::Entry> entry;
    try {
        entry = s.store->inspect(key);
    } catch (const cache::DamagedEntryError& error) {
        require_named(error.what(), folder.string(), "a damaged entry's error");
        return 0;
    }
    if (!entry) fuzz::finding("the entry's folder is there but the store found no entry");

    try {
        s.trusted.require_signed(*entry, "seed " + s.root.string());
    } catch (const cache::UntrustedEntryError& error) {
        require_named(error.what(), "seed " + s.root.string(), "an untrusted entry's error");
    }

    const std::string manifest_path = (folder / cache::detail::kManifestName).string();
    cache::EntryManifest manifest;
    try {
        manifest = cache::read_entry_manifest(*entry);
    } catch (const cache::CacheError& error) {
        require_named(error.what(), manifest_path, "a manifest error");
        require_named(error.what(), "manifest field \"", "a manifest error");
        return 0;
    }
    // One writer, one reader: what the writer makes of a record reads back as the same record.
    const nlohmann::json written = cache::to_json(manifest);
    try {
        const nlohmann::json again = cache::to_json(cache::read_entry_manifest(written, "again"));
        if (again != written)
            fuzz::finding("the manifest's writer and reader disagree: " + written.dump() +
                          " reads back as " + again.dump());
    } catch (const cache::CacheError& error) {
        fuzz::finding(std::string("the manifest's own writer wrote what its reader rejects: ") +
                      error.what());
    }
    return 0;
}
