// The Bazel HTTP remote cache's answers as the client sees them: the bytes are the server's
// answers to the reads of one entry, in the order the client asks (GET /ac/<key>, then
// GET /cas/<digest> for each file the manifest lists), each a status line ("200", or "0 why" for
// no answer), header lines, a blank line and the body, answers separated by kSeparator. They go
// through cache/detail/remote_fetch.h (what RemoteHttpBackend::fetch does with libcurl's answers)
// and then the signature check a remote entry must pass (cache/trust.h).
// Allowed: nullopt for 404, DamagedEntryError naming the URL read, UntrustedEntryError naming the
// remote, and the unusable-answer handler's error for other statuses. An entry returned whose
// file does not hash to the digest it was fetched under is a finding, as is anything else.
#include "cache/detail/layout.h"
#include "cache/detail/remote_fetch.h"
#include "cache/key.h"
#include "cache/store.h"
#include "cache/trust.h"
#include "fuzz_support.h"

#include <charconv>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace optiml;

constexpr std::string_view kSeparator = "\n--optiml-fuzz-answer--\n";
const std::string kUrl = "http://remote.invalid:8080/optiml";
// The key asked for when the manifest names none that is valid (the saxpy seed's).
const std::string kDefaultKey = "f85476b53f8f5b875f5f6639542f588cbe48a9c1d22e7770345c99efddcf9f81";

class Unusable : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

std::vector<std::string_view> split(std::string_view text, std::string_view separator) {
    std::vector<std::string_view> parts;
    for (std::size_t at; (at = text.find(separator)) != std::string_view::npos;) {
        parts.push_back(text.substr(0, at));
        text.remove_prefix(at + separator.size());
    }
    parts.push_back(text);
    return parts;
}

// "<status>[ why]\n<Name: value>...\n\n<body>": headers are kept as base::HttpClient keeps them
// (values trimmed of blanks).
base::HttpResponse answer_of(std::string_view text) {
    base::HttpResponse response;
    const std::size_t line_end = std::min(text.find('\n'), text.size());
    const std::string_view status_line = text.substr(0, line_end);
    long status = 0;
    const auto [rest, error] =
        std::from_chars(status_line.data(), status_line.data() + status_line.size(), status);
    response.status = error == std::errc() ? status : 0;
    if (response.status == 0)
        response.transport_error =
            std::string(status_line.substr(static_cast<std::size_t>(rest - status_line.data())));
    text.remove_prefix(std::min(line_end + 1, text.size()));
    while (!text.empty() && text.front() != '\n') {
        const std::size_t end = std::min(text.find('\n'), text.size());
        const std::string_view line = text.substr(0, end);
        const std::size_t colon = line.find(':');
        if (colon != std::string_view::npos) {
            std::string_view value = line.substr(colon + 1);
            while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
                value.remove_prefix(1);
            while (!value.empty() &&
                   (value.back() == ' ' || value.back() == '\t' || value.back() == '\r'))
                value.remove_suffix(1);
            response.headers.emplace_back(std::string(line.substr(0, colon)), std::string(value));
        }
        text.remove_prefix(std::min(end + 1, text.size()));
    }
    if (!text.empty()) text.remove_prefix(1);  // the blank line
    response.body = std::string(text);
    return response;
}

// The key the manifest claims, when it is a valid one; found without parsing.
std::string asked_key(std::string_view manifest) {
    const std::size_t at = manifest.find("\"key\"");
    if (at == std::string_view::npos) return kDefaultKey;
    const std::size_t quote = manifest.find('"', manifest.find(':', at) + 1);
    if (quote == std::string_view::npos || quote + 65 > manifest.size()) return kDefaultKey;
    const std::string key(manifest.substr(quote + 1, 64));
    return cache::detail::is_valid_key(key) ? key : kDefaultKey;
}

const cache::TrustedKeys& trusted() {
    static const std::unique_ptr<cache::TrustedKeys> keys = [] {
        auto made = std::make_unique<cache::TrustedKeys>();
        made->add_file(std::filesystem::path(OPTIML_SOURCE_DIR) /
                       "examples/saxpy/optiml-seed/trusted-keys.txt");
        return made;
    }();
    return *keys;
}

void require_named(const std::string& message, const std::string& name, const char* what) {
    if (message.find(name) == std::string::npos)
        fuzz::finding(std::string(what) + " that does not name " + name + ": " + message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::string_view> answers = split(fuzz::as_text(data, size), kSeparator);
    std::size_t next = 0;
    std::map<std::string, std::string> served;  // path -> body answered with a success
    const cache::detail::RemoteGet get = [&](const std::string& path) {
        // Past the last answer the server is gone.
        base::HttpResponse response =
            next < answers.size() ? answer_of(answers[next++])
                                  : base::HttpResponse{0, {}, "connection refused", true, {}};
        // What the client sees is also what it may look up.
        (void)response.header("content-length");
        (void)response.header("Content-Type");
        if (response.status >= 200 && response.status < 300) served[path] = response.body;
        return response;
    };
    const cache::detail::RemoteUnusable unusable = [](const std::string& path,
                                                      const base::HttpResponse& response) {
        throw Unusable("GET " + path + ": " + std::to_string(response.status));
    };

    const std::string key = asked_key(answers.front());
    std::optional<cache::Entry> entry;
    try {
        entry = cache::detail::entry_from_answers(kUrl, key, get, unusable);
    } catch (const cache::DamagedEntryError& error) {
        require_named(error.what(), kUrl + "/", "a damaged remote entry's error");
        return 0;
    } catch (const Unusable&) {
        return 0;
    }
    if (!entry) return 0;

    // Every blob is checked against its digest: what came back is what the manifest records,
    // and what the server answered for /cas/<that digest>.
    const nlohmann::json& digests = entry->manifest.at("sha256");
    if (entry->files.size() != digests.size())
        fuzz::finding("an entry whose files are not those its manifest lists");
    for (const auto& [name, bytes] : entry->files) {
        const std::string digest = digests.at(name).get<std::string>();
        if (cache::sha256_hex(bytes) != digest)
            fuzz::finding("a blob taken whose bytes do not hash to its digest: " + name);
        const auto answered = served.find("/cas/" + digest);
        if (answered == served.end() || answered->second != bytes)
            fuzz::finding("a blob taken that is not what the server answered for its digest");
    }

    try {
        trusted().require_signed(*entry, "remote " + kUrl);
    } catch (const cache::UntrustedEntryError& error) {
        require_named(error.what(), "remote " + kUrl, "an untrusted entry's error");
    }
    return 0;
}
