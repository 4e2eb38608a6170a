// Where the remote cache is and how to reach it: the URL and mode from the command line or the
// environment, credentials and the CA from the environment only (docs/caching.md, "Remote
// cache"). Credentials live here and in the HTTP client, never in a message.
#pragma once

#include <optional>
#include <string>

namespace optiml::cache {

enum class RemoteMode { kReadOnly, kReadWrite };

// "read" / "read-write"; nullopt for anything else.
std::optional<RemoteMode> parse_remote_mode(const std::string& text);

struct RemoteConfig {
    std::string url;  // base URL without a trailing '/', e.g. http://cache:8080/optiml
    RemoteMode mode = RemoteMode::kReadOnly;
    long connect_timeout_ms = 2000;   // per request: TCP (and TLS) connection
    long request_timeout_ms = 10000;  // per request: everything, connection included
    std::string bearer_token;         // $OPTIML_REMOTE_CACHE_TOKEN
    std::string user;                 // $OPTIML_REMOTE_CACHE_USER (basic auth)
    std::string password;             // $OPTIML_REMOTE_CACHE_PASSWORD
    std::string ca_file;              // $OPTIML_REMOTE_CACHE_CA: PEM bundle to verify TLS with
};

// The remote a command uses: `url` when not empty, else $OPTIML_REMOTE_CACHE; nullopt when both
// are empty (no remote). `mode` when not empty, else $OPTIML_REMOTE_CACHE_MODE, else read-only.
// Timeouts: $OPTIML_REMOTE_CACHE_CONNECT_TIMEOUT_MS and $OPTIML_REMOTE_CACHE_TIMEOUT_MS override
// the defaults above. Throws CacheError naming the variable or option and the fix when a value
// is malformed (a URL that is not http(s)://, an unknown mode, credentials inside the URL).
std::optional<RemoteConfig> remote_config(const std::string& url, const std::string& mode);

// As remote_config, for a command that cannot go on without a remote (`optiml cache push|pull`,
// `optiml retune --publish`): throws CacheError saying how to name one when there is none.
RemoteConfig required_remote_config(const std::string& url, const std::string& mode);

// The URL as messages show it: scheme, host, port and path, never a user or password.
std::string display_url(const std::string& url);

}  // namespace optiml::cache
