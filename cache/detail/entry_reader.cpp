#include "cache/detail/entry_reader.h"

#include <algorithm>

#include "cache/detail/entry_lock.h"
#include "cache/detail/file_io.h"
#include "cache/detail/layout.h"
#include "cache/detail/manifest.h"
#include "cache/key.h"

namespace optiml::cache::detail {

namespace {

[[noreturn]] void damaged(const std::filesystem::path& path, const std::string& problem,
                          const std::string& fix) {
    throw DamagedEntryError(path.string() + ": " + problem + "; " + fix);
}

struct LineColumn {
    std::size_t line = 1;
    std::size_t column = 1;
};

LineColumn position_of(const std::string& text, std::size_t byte) {
    // nlohmann's parse_error::byte is 1-based: the offset just past the offending character.
    LineColumn position;
    std::size_t end = std::min(byte == 0 ? 0 : byte - 1, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++position.line;
            position.column = 1;
        } else {
            ++position.column;
        }
    }
    return position;
}

nlohmann::json parse_manifest(const std::filesystem::path& path, const std::string& fix) {
    std::optional<std::string> text = read_file(path);
    if (!text) damaged(path, "missing", fix);
    return parse_manifest_text(*text, path, fix);
}

Entry read_entry(const std::filesystem::path& directory, const std::string& key,
                 const std::string& fix) {
    const std::filesystem::path manifest_path = directory / kManifestName;
    Entry entry;
    entry.key = key;
    entry.directory = directory;
    entry.manifest = parse_manifest(manifest_path, fix);
    for (const auto& [name, expected] : recorded_hashes(entry.manifest, manifest_path, key, fix)) {
        const std::filesystem::path file = directory / name;
        std::optional<std::string> bytes = read_file(file);
        if (!bytes) damaged(file, "missing (listed in " + std::string(kManifestName) + ")", fix);
        std::string actual = sha256_hex(*bytes);
        if (actual != expected) {
            damaged(file,
                    "SHA-256 is " + actual + " but " + std::string(kManifestName) + " records " +
                        expected + " (the file was changed or truncated)",
                    fix);
        }
        entry.files.emplace(name, std::move(*bytes));
    }
    return entry;
}

bool is_folder(const std::filesystem::path& path) {
    std::error_code error;
    return std::filesystem::is_directory(path, error);
}

}  // namespace

nlohmann::json parse_manifest_text(const std::string& text, const std::filesystem::path& where,
                                   const std::string& fix) {
    nlohmann::json manifest;
    try {
        manifest = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& error) {
        LineColumn at = position_of(text, error.byte);
        damaged(where,
                "not valid JSON (line " + std::to_string(at.line) + ", column " +
                    std::to_string(at.column) + ")",
                fix);
    } catch (const nlohmann::json::out_of_range&) {
        // nlohmann reports a number beyond a double's range (1e400) so, not as a parse_error.
        damaged(where, "not valid JSON (a number too large for a double)", fix);
    }
    if (!manifest.is_object()) damaged(where, "not a JSON object", fix);
    return manifest;
}

std::map<std::string, std::string> recorded_hashes(const nlohmann::json& manifest,
                                                   const std::filesystem::path& path,
                                                   const std::string& key, const std::string& fix) {
    auto stored_key = manifest.find("key");
    if (stored_key == manifest.end() || !stored_key->is_string()) {
        damaged(path, "\"key\" is missing or not a string", fix);
    }
    if (stored_key->get<std::string>() != key) {
        damaged(path,
                "\"key\" is '" + stored_key->get<std::string>() +
                    "' but the entry's folder is named '" + key + "'",
                fix);
    }
    auto hashes = manifest.find("sha256");
    if (hashes == manifest.end() || !hashes->is_object()) {
        damaged(path, "\"sha256\" is missing or not an object of file name -> SHA-256", fix);
    }
    std::map<std::string, std::string> recorded;
    for (const auto& [name, hash] : hashes->items()) {
        if (!is_valid_file_name(name)) {
            damaged(path, "\"sha256\" names '" + name + "', which is not a plain file name", fix);
        }
        if (!hash.is_string()) damaged(path, "\"sha256\"[\"" + name + "\"] is not a string", fix);
        recorded[name] = hash.get<std::string>();
    }
    std::optional<std::vector<std::string>> referenced = referenced_file_names(manifest);
    if (!referenced) {
        damaged(path, "\"files\" is neither role -> file name nor a list of file names", fix);
    }
    for (const std::string& name : *referenced) {
        if (!recorded.contains(name)) {
            damaged(path, "\"files\" names '" + name + "' but \"sha256\" has no hash for it", fix);
        }
    }
    return recorded;
}

std::string damage_fix(const std::filesystem::path& root, bool read_only) {
    if (read_only) {
        return "this read-only cache (a seed cache) is damaged: restore it from version control "
               "or write it again with `optiml cache export --to " +
               root.string() + "`";
    }
    return "remove the entry with `optiml cache gc`";
}

std::optional<Entry> load_entry(const std::filesystem::path& root, const std::string& key,
                                const std::string& fix) {
    require_valid_key(key);
    const std::filesystem::path directory = entry_dir(root, key);
    // Entries are immutable once renamed into place. gc and remove take one away only while no
    // reader holds its lock (entry_lock.h); one taken away (and perhaps put back by a writer)
    // before we locked it is an absent or fresh entry, not damage. A remover that does not lock
    // (a person's `rm -r`) may still race us: damage counts only when the folder is still there
    // and a second read sees it too.
    for (int attempt = 0;; ++attempt) {
        const EntryLock lock(directory, EntryLock::Mode::kShared);
        if (lock.state() == EntryLock::State::kAbsent) return std::nullopt;
        if (lock.state() == EntryLock::State::kReplaced) {
            if (attempt < 3) continue;
            return std::nullopt;
        }
        try {
            return read_entry(directory, key, fix);
        } catch (const DamagedEntryError&) {
            if (!is_folder(directory)) return std::nullopt;
            if (attempt > 0) throw;
        }
    }
}

}  // namespace optiml::cache::detail
