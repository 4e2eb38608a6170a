#include "cache/remote_config.h"

#include <cstdlib>

#include "cache/store.h"

namespace optiml::cache {

namespace {

std::string environment_setting(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

long milliseconds_from_environment(const char* name, long fallback) {
    const std::string text = environment_setting(name);
    if (text.empty()) return fallback;
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (*end != '\0' || value <= 0) {
        throw CacheError(std::string(name) + "='" + text +
                         "' is not a positive number of milliseconds; unset it or set e.g. 5000");
    }
    return value;
}

}  // namespace

std::optional<RemoteMode> parse_remote_mode(const std::string& text) {
    if (text == "read") return RemoteMode::kReadOnly;
    if (text == "read-write") return RemoteMode::kReadWrite;
    return std::nullopt;
}

std::string display_url(const std::string& url) {
    const std::size_t scheme_end = url.find("://");
    if (scheme_end == std::string::npos) return url;
    const std::size_t authority = scheme_end + 3;
    const std::size_t path = url.find('/', authority);
    const std::size_t at = url.rfind('@', path == std::string::npos ? url.size() : path);
    if (at == std::string::npos || at < authority) return url;
    return url.substr(0, authority) + url.substr(at + 1);
}

std::optional<RemoteConfig> remote_config(const std::string& url, const std::string& mode) {
    const bool from_option = !url.empty();
    std::string base = from_option ? url : environment_setting("OPTIML_REMOTE_CACHE");
    if (base.empty()) return std::nullopt;
    const std::string origin = from_option ? "the remote cache URL (REMOTE_CACHE / --remote-cache)"
                                           : "OPTIML_REMOTE_CACHE";
    if (base.rfind("http://", 0) != 0 && base.rfind("https://", 0) != 0) {
        throw CacheError(origin + " is '" + display_url(base) +
                         "'; expected an http:// or https:// URL of a server speaking the Bazel "
                         "remote-cache protocol, e.g. http://cache.example:8080/optiml");
    }
    if (display_url(base) != base) {
        // A URL is printed in messages and recorded by CMake: secrets belong elsewhere.
        throw CacheError(origin +
                         " carries a user name or password; remove it from the URL and "
                         "set OPTIML_REMOTE_CACHE_USER and OPTIML_REMOTE_CACHE_PASSWORD "
                         "(or OPTIML_REMOTE_CACHE_TOKEN) in the environment instead");
    }
    while (base.ends_with('/')) base.pop_back();

    RemoteConfig config;
    config.url = base;
    const std::string mode_text =
        mode.empty() ? environment_setting("OPTIML_REMOTE_CACHE_MODE") : mode;
    if (!mode_text.empty()) {
        const std::optional<RemoteMode> parsed = parse_remote_mode(mode_text);
        if (!parsed) {
            throw CacheError((mode.empty() ? "OPTIML_REMOTE_CACHE_MODE" : "the remote cache mode") +
                             std::string(" is '") + mode_text +
                             "'; expected read (developer machines: never upload) or read-write "
                             "(CI runners that tune and publish)");
        }
        config.mode = *parsed;
    }
    config.connect_timeout_ms = milliseconds_from_environment(
        "OPTIML_REMOTE_CACHE_CONNECT_TIMEOUT_MS", config.connect_timeout_ms);
    config.request_timeout_ms =
        milliseconds_from_environment("OPTIML_REMOTE_CACHE_TIMEOUT_MS", config.request_timeout_ms);
    config.bearer_token = environment_setting("OPTIML_REMOTE_CACHE_TOKEN");
    config.user = environment_setting("OPTIML_REMOTE_CACHE_USER");
    config.password = environment_setting("OPTIML_REMOTE_CACHE_PASSWORD");
    config.ca_file = environment_setting("OPTIML_REMOTE_CACHE_CA");
    if (!config.password.empty() && config.user.empty()) {
        throw CacheError(
            "OPTIML_REMOTE_CACHE_PASSWORD is set but OPTIML_REMOTE_CACHE_USER is not; basic "
            "authentication needs both");
    }
    return config;
}

RemoteConfig required_remote_config(const std::string& url, const std::string& mode) {
    std::optional<RemoteConfig> config = remote_config(url, mode);
    if (!config) {
        throw CacheError(
            "no remote cache: pass --remote-cache <url> or set OPTIML_REMOTE_CACHE (e.g. "
            "http://cache.example:8080/optiml)");
    }
    return *config;
}

}  // namespace optiml::cache
