// The remote cache: a Backend speaking the Bazel HTTP remote-cache protocol, so that an existing
// server (bazel-remote, nginx with WebDAV PUT, an S3 gateway) serves a team:
//   /ac/<key>       the entry's manifest.json (stored form: "key", "sha256", "signature", ...)
//   /cas/<sha256>   each of its files, addressed by the SHA-256 of its bytes
// GET reads, HEAD asks whether a blob is there, PUT writes (blobs first, the manifest last, so
// a reader never sees a manifest whose blobs are missing). Every blob is checked against its
// digest before use. docs/caching.md, "Remote cache", says it all with the timeouts.
#pragma once

#include <filesystem>
#include <memory>

#include "cache/backend.h"
#include "cache/remote_config.h"
#include "driver/base/http_client.h"

namespace optiml::cache {

// The remote could not be used (unreachable, too slow, refused the credentials, answered an
// error). The backend stays off for the rest of the process (and, with a state folder, for
// other processes during kRemoteRetrySeconds), so a build waits for a dead server once.
// A write the server refused with an HTTP status (a full disk's 507 or 500, a 403) only stops
// this process's uploads: a server that answers still serves reads.
class RemoteUnavailableError : public CacheError {
  public:
    using CacheError::CacheError;
};

inline constexpr int kRemoteRetrySeconds = 60;

class RemoteHttpBackend final : public Backend {
  public:
    // `state_dir` (a local cache's root, may be empty) holds remote-down/<url hash>, the mark
    // that tells other processes to skip this remote for kRemoteRetrySeconds.
    // `replace_existing`: publish() overwrites an entry the remote already has (a retune).
    RemoteHttpBackend(RemoteConfig config, std::filesystem::path state_dir,
                      bool replace_existing = false);
    ~RemoteHttpBackend() override;

    std::string location() const override { return config_.url; }
    bool writable() const override { return config_.mode == RemoteMode::kReadWrite; }
    // nullopt when absent, or when the remote is off (after a RemoteUnavailableError). A blob
    // whose bytes differ from its digest, or a manifest that is not one, is DamagedEntryError.
    std::optional<Entry> fetch(const std::string& key) override;
    // Uploads what the remote lacks; false when the entry was there (and not replaced) or the
    // remote is off (or refused an earlier upload of this process). CacheError in read-only
    // mode; RemoteUnavailableError when it fails.
    bool publish(const Entry& entry) override;
    // Whether the remote has a manifest for `key` (HEAD /ac/<key>).
    bool contains(const std::string& key);

    bool available() const { return !unavailable_; }

  private:
    // GET, HEAD or PUT of `path` below the remote's URL.
    base::HttpResponse request(const char* method, const std::string& path,
                               const std::string& body = {});
    // Throws RemoteUnavailableError saying why; `mark_down`: stop using the remote (this
    // process, and others through the state folder's mark), else only stop uploading.
    [[noreturn]] void fail(const std::string& what, const std::string& method,
                           const std::string& path, long status, const std::string& transport_error,
                           bool mark_down = true);
    void put(const std::string& path, const std::string& body);
    std::filesystem::path down_marker() const;

    RemoteConfig config_;
    std::filesystem::path state_dir_;
    bool replace_existing_;
    bool unavailable_ = false;
    bool unwritable_ = false;  // the server refused a PUT: no more uploads from this process
    std::unique_ptr<base::HttpClient> http_;
};

}  // namespace optiml::cache
