#include "cache/trust.h"

#include <sstream>

#include "cache/detail/file_io.h"

namespace optiml::cache {

namespace {

std::string list_files(const std::vector<std::filesystem::path>& files) {
    if (files.empty()) return "none was found";
    std::string list;
    for (const auto& file : files) list += (list.empty() ? "" : ", ") + file.string();
    return list;
}

}  // namespace

bool TrustedKeys::add_file(const std::filesystem::path& file) {
    const std::optional<std::string> text = detail::read_file(file);
    if (!text) return false;
    std::istringstream lines(*text);
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
        std::istringstream words(line);
        std::string algorithm, key, comment;
        words >> algorithm;
        if (algorithm.empty() || algorithm[0] == '#') continue;
        words >> key;
        std::getline(words >> std::ws, comment);
        // A public key is 32 bytes: 44 characters of base64 ending in one '='.
        if (algorithm != "ed25519" || key.size() != 44 || key.back() != '=') {
            throw CacheError(file.string() + ":" + std::to_string(number) +
                             ": not a trusted key; expected 'ed25519 <base64 public key> "
                             "<comment>', the line of a .pub file `optiml cache keygen` writes");
        }
        comments_[key] = comment;
    }
    files_.push_back(file);
    return true;
}

void TrustedKeys::require_signed(const Entry& entry, const std::string& where) const {
    const std::string what = where + ": entry " + entry.key.substr(0, 12) + " ";
    const auto signature = entry.manifest.find("signature");
    if (signature == entry.manifest.end()) {
        throw UntrustedEntryError(
            what +
            "is unsigned, and entries from a seed or a remote cache ship only when a "
            "trusted key signed them (trusted-keys files: " +
            list_files(files_) +
            "); sign it on the tuning machine with `optiml cache sign` (OPTIML_SIGNING_KEY) and "
            "publish it again");
    }
    const bool well_formed =
        // value("algorithm", "") would throw nlohmann's type_error for a non-string algorithm.
        signature->is_object() && signature->contains("algorithm") &&
        (*signature)["algorithm"] == "ed25519" && signature->contains("public_key") &&
        (*signature)["public_key"].is_string() && signature->contains("value") &&
        (*signature)["value"].is_string();
    if (!well_formed) {
        throw UntrustedEntryError(what +
                                  "has a malformed \"signature\" (expected algorithm \"ed25519\", "
                                  "public_key and value strings); it is not used");
    }
    const PublicKeyText key = (*signature)["public_key"].get<std::string>();
    const auto trusted = comments_.find(key);
    if (trusted == comments_.end()) {
        throw UntrustedEntryError(
            what + "is signed by key " + key + ", which no trusted-keys file lists (" +
            list_files(files_) +
            "); if that tuner is yours, add the line of its .pub file to the project's " +
            kTrustedKeysFileName);
    }
    const std::string message = signed_message(entry.key, entry.manifest, entry.files);
    if (!signature_matches(key, (*signature)["value"].get<std::string>(), message)) {
        throw UntrustedEntryError(
            what + "has a signature by trusted key " + key + " (" + trusted->second +
            ") that does not match its contents: the manifest or a file changed after signing; "
            "it is not used");
    }
}

std::optional<Entry> TrustedBackend::fetch(const std::string& key) {
    std::optional<Entry> entry = inner_->fetch(key);
    if (entry) keys_->require_signed(*entry, label_ + " " + location());
    return entry;
}

}  // namespace optiml::cache
