// Internal to cache/: what the remote's answers to a read make of an entry, apart from how they
// travel (remote_http.cpp asks libcurl; the fuzz target and tests give answers as values). The
// Bazel HTTP protocol's reads: GET /ac/<key> answers the entry's manifest (stored form: "key",
// "sha256", ...), GET /cas/<sha256> each of its files, which must hash to the digest it is stored
// under. The server's headers are not read: a body is taken as it came, checked by its digest.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "cache/store.h"
#include "driver/base/http_client.h"

namespace optiml::cache::detail {

// The server's answer to GET <url><path>.
using RemoteGet = std::function<base::HttpResponse(const std::string& path)>;
// Called for an answer that is neither a success nor 404 (an error status, or no answer: then
// `response.transport_error` says why); it must throw (the backend turns the remote off).
using RemoteUnusable =
    std::function<void(const std::string& path, const base::HttpResponse& response)>;

// What a remote at `url` holds for `key`: nullopt when GET /ac/<key> answers 404, else the
// manifest and every file it lists, each file's bytes hashing to its digest. Throws
// DamagedEntryError naming the URL read, the problem and what to do: a manifest that is not
// valid JSON, not an object, for another key or without digests; a digest that is not a
// SHA-256; a blob missing (404) or whose bytes do not hash to its digest. Another status calls
// `unusable`. `key` must be a valid key.
std::optional<Entry> entry_from_answers(const std::string& url, const std::string& key,
                                        const RemoteGet& get, const RemoteUnusable& unusable);

}  // namespace optiml::cache::detail
