#include "cache/detail/remote_fetch.h"

#include <filesystem>
#include <stdexcept>

#include "cache/detail/entry_reader.h"
#include "cache/detail/layout.h"
#include "cache/key.h"

namespace optiml::cache::detail {

namespace {

constexpr const char* kRepublish =
    "the remote's copy is damaged or was tampered with; it is not used. Publish the entry "
    "again from a tuning runner (`optiml cache push`), or delete it on the server";

bool is_success(long status) {
    return status >= 200 && status < 300;
}

// `unusable` must not return; should it, the answer is still not taken.
[[noreturn]] void give_up(const RemoteUnusable& unusable, const std::string& path,
                          const base::HttpResponse& response) {
    unusable(path, response);
    throw std::logic_error("remote cache: the handler of an unusable answer to GET " + path +
                           " returned");
}

std::string blob_from_answers(const std::string& url, const std::string& key,
                              const std::string& name, const std::string& digest,
                              const RemoteGet& get, const RemoteUnusable& unusable) {
    const std::string path = "/cas/" + digest;
    const std::string what = url + path + " (" + name + " of entry " + key.substr(0, 12) + ")";
    if (!is_valid_key(digest))  // a digest is a SHA-256, like a key
        throw DamagedEntryError(what + ": the manifest's digest is not a SHA-256; " + kRepublish);
    base::HttpResponse response = get(path);
    if (response.status == 404)
        throw DamagedEntryError(what + ": missing on the server; " + kRepublish);
    if (!is_success(response.status)) give_up(unusable, path, response);
    const std::string actual = sha256_hex(response.body);
    if (actual != digest) {
        throw DamagedEntryError(what + ": SHA-256 of the " + std::to_string(response.body.size()) +
                                " bytes received is " + actual +
                                ", not the digest it is stored under (the blob was changed or "
                                "truncated); " +
                                kRepublish);
    }
    return std::move(response.body);
}

}  // namespace

std::optional<Entry> entry_from_answers(const std::string& url, const std::string& key,
                                        const RemoteGet& get, const RemoteUnusable& unusable) {
    const std::string path = "/ac/" + key;
    const base::HttpResponse response = get(path);
    if (response.status == 404) return std::nullopt;
    if (!is_success(response.status)) give_up(unusable, path, response);

    const std::filesystem::path where = url + path;
    Entry entry;
    entry.key = key;
    entry.manifest = parse_manifest_text(response.body, where, kRepublish);
    for (const auto& [name, digest] : recorded_hashes(entry.manifest, where, key, kRepublish))
        entry.files.emplace(name, blob_from_answers(url, key, name, digest, get, unusable));
    return entry;
}

}  // namespace optiml::cache::detail
