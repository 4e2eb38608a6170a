// BuildCache with a remote that is not there (cache/build_cache.h): the build goes on, warns once
// and writes a mark so that the next process skips the remote; read-only mode never publishes.
// (tests/integration/remote_cache.sh covers a real server.)
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cache/build_cache.h"
#include "cache/detail/remote_http.h"
#include "scratch.h"

namespace optiml::cache {
namespace {

using testing::sample_entry;
using testing::ScratchDir;

// A loopback URL nothing listens on: a port the kernel just handed out, closed again.
std::string refusing_url() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    EXPECT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
    ::close(fd);
    return "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/cache";
}

// A server on a free loopback port that hands each connection to `serve`, then closes it.
class LoopbackServer {
  public:
    explicit LoopbackServer(std::function<void(int client)> serve)
        : fd_(::socket(AF_INET, SOCK_STREAM, 0)), serve_(std::move(serve)) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        EXPECT_EQ(::listen(fd_, 16), 0);
        EXPECT_EQ(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length), 0);
        port_ = ntohs(address.sin_port);
        accepter_ = std::thread([this] {
            for (;;) {
                const int client = ::accept(fd_, nullptr, nullptr);
                if (client < 0) {
                    if (errno == EINTR) continue;
                    return;  // shutdown() by the destructor
                }
                serve_(client);
                ::close(client);
            }
        });
    }
    ~LoopbackServer() {
        ::shutdown(fd_, SHUT_RDWR);  // wakes the blocked accept()
        accepter_.join();
        ::close(fd_);
    }
    LoopbackServer(const LoopbackServer&) = delete;
    LoopbackServer& operator=(const LoopbackServer&) = delete;

    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/cache"; }

  private:
    int fd_;
    int port_ = 0;
    std::function<void(int)> serve_;
    std::thread accepter_;
};

// A loopback remote that takes each connection and resets it at once (SO_LINGER 0): it refuses
// every request, as a closed port does, but counts the attempts, so that a test asserts how many
// requests were made rather than how long they took.
class ResettingServer {
  public:
    std::string url() const { return server_.url(); }
    int connections() const { return connections_.load(); }

  private:
    std::atomic<int> connections_{0};
    LoopbackServer server_{[this](int client) {
        ++connections_;  // before the reset, so the client never returns uncounted
        const linger reset{1, 0};
        ::setsockopt(client, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    }};
};

// A loopback remote whose disk is full: it answers reads (404: no entry; the HEAD before an
// upload too) and refuses every PUT with 507 Insufficient Storage, as a WebDAV server on a full
// volume does. It counts the requests of each method.
class FullDiskServer {
  public:
    std::string url() const { return server_.url(); }
    int requests(const std::string& method) const {
        const std::lock_guard<std::mutex> lock(mutex_);
        return static_cast<int>(std::count(methods_.begin(), methods_.end(), method));
    }

  private:
    // One request per connection: its head, then its body (Content-Length), then the answer.
    void answer(int client) {
        std::string request;
        char buffer[4096];
        std::size_t head_end = std::string::npos;
        while (head_end == std::string::npos) {
            const ssize_t count = ::read(client, buffer, sizeof buffer);
            if (count <= 0) return;
            request.append(buffer, static_cast<std::size_t>(count));
            head_end = request.find("\r\n\r\n");
        }
        const std::string method = request.substr(0, request.find(' '));
        std::size_t body = 0;
        if (const auto at = request.find("Content-Length: ");
            at != std::string::npos && at < head_end)
            body = std::stoul(request.substr(at + 16));
        while (request.size() < head_end + 4 + body) {
            const ssize_t count = ::read(client, buffer, sizeof buffer);
            if (count <= 0) break;
            request.append(buffer, static_cast<std::size_t>(count));
        }
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            methods_.push_back(method);
        }
        const std::string status = method == "PUT" ? "507 Insufficient Storage" : "404 Not Found";
        const std::string reply =
            "HTTP/1.1 " + status + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        [[maybe_unused]] const ssize_t sent = ::write(client, reply.data(), reply.size());
    }

    mutable std::mutex mutex_;
    std::vector<std::string> methods_;
    LoopbackServer server_{[this](int client) { answer(client); }};
};

class BuildCacheTest : public ::testing::Test {
  protected:
    // No test sees a signing key it did not ask for (use_signing_key), nor leaves one behind.
    void SetUp() override { ::unsetenv("OPTIML_SIGNING_KEY"); }
    void TearDown() override { ::unsetenv("OPTIML_SIGNING_KEY"); }
    RemoteConfig remote(RemoteMode mode) const {
        RemoteConfig remote;
        remote.url = url_;
        remote.mode = mode;
        return remote;
    }
    BuildCacheConfig config(RemoteMode mode) {
        return {scratch_.path() / "local", {}, remote(mode), {}};
    }
    // A tuning runner's key pair under the scratch folder, named by $OPTIML_SIGNING_KEY for the
    // rest of the test; returns its .pub file.
    std::filesystem::path use_signing_key() {
        const auto pub = write_key_pair(scratch_.path() / "keys", "runner", "test");
        ::setenv("OPTIML_SIGNING_KEY", (scratch_.path() / "keys" / "runner.pem").c_str(), 1);
        return pub;
    }
    Warn collect() {
        return [this](const std::string& w) { warnings_.push_back(w); };
    }
    ScratchDir scratch_;
    std::string url_ = refusing_url();
    std::vector<std::string> warnings_;
};

TEST_F(BuildCacheTest, ARemoteThatRefusesIsOneWarningAndTheNextProcessSkipsIt) {
    const ResettingServer server;
    url_ = server.url();
    {
        BuildCache caches(config(RemoteMode::kReadOnly), collect());
        EXPECT_FALSE(caches.fetch(sample_entry("a").key));
        EXPECT_FALSE(caches.fetch(sample_entry("b").key));  // the remote is off by now
        // The build paid for the dead remote once: one request, not retried, none for "b".
        EXPECT_EQ(server.connections(), 1);
    }
    ASSERT_EQ(warnings_.size(), 1u);
    EXPECT_EQ(warnings_[0].rfind("remote cache " + url_ + ": cannot read (GET /ac/", 0), 0u)
        << warnings_[0];
    EXPECT_NE(warnings_[0].find("the build goes on without it"), std::string::npos);
    // Another build process with the same local cache: no request, no warning.
    BuildCache next(config(RemoteMode::kReadOnly), collect());
    EXPECT_FALSE(next.fetch(sample_entry("c").key));
    EXPECT_EQ(warnings_.size(), 1u);
    EXPECT_EQ(server.connections(), 1);
}

// A remote whose disk is full refuses the upload: one warning with the status, the local cache
// has the result, and no other upload is tried from this process. It still answers reads, so it
// is not marked down: the next build process asks it (no mark to skip it by) and warns nothing.
TEST_F(BuildCacheTest, ARemoteThatRefusesAnUploadStillServesReads) {
    const FullDiskServer server;
    url_ = server.url();
    use_signing_key();
    {
        BuildCache caches(config(RemoteMode::kReadWrite), collect());
        EXPECT_FALSE(caches.store(sample_entry("tuned")));
        EXPECT_TRUE(caches.local().contains(sample_entry("tuned").key));
        ASSERT_EQ(warnings_.size(), 1u);
        EXPECT_EQ(warnings_[0].rfind("not published to the remote cache: remote cache " + url_ +
                                         ": cannot write (PUT /cas/",
                                     0),
                  0u)
            << warnings_[0];
        EXPECT_NE(warnings_[0].find("HTTP 507 Insufficient Storage"), std::string::npos)
            << warnings_[0];
        EXPECT_NE(warnings_[0].find("it still serves reads"), std::string::npos) << warnings_[0];
        EXPECT_EQ(server.requests("PUT"), 1);
        EXPECT_FALSE(caches.store(sample_entry("tuned too")));  // no second try, no second line
        EXPECT_EQ(server.requests("PUT"), 1);
        EXPECT_EQ(warnings_.size(), 1u);
    }
    const int gets = server.requests("GET");
    BuildCache next(config(RemoteMode::kReadOnly), collect());
    EXPECT_FALSE(next.fetch(sample_entry("elsewhere").key));
    EXPECT_EQ(server.requests("GET"), gets + 1) << "a full remote was marked down for reads";
    EXPECT_EQ(warnings_.size(), 1u);
}

// A local cache that cannot be written (here a folder under /proc, which has no free block and,
// for a user other than root, no write permission) is one warning naming it; remote hits are
// then not copied in and a tuning's result is not stored, without a second warning.
TEST_F(BuildCacheTest, ALocalCacheThatCannotBeWrittenIsOneWarningNamingIt) {
    const std::filesystem::path local = "/proc/optiml-cache-test";
    BuildCache caches({local, {}, remote(RemoteMode::kReadOnly), {}}, collect());
    ASSERT_EQ(warnings_.size(), 1u);
    EXPECT_EQ(warnings_[0].rfind("the local cache " + local.string() + " cannot be written (", 0),
              0u)
        << warnings_[0];
    EXPECT_NE(warnings_[0].find("the build goes on"), std::string::npos) << warnings_[0];
    EXPECT_FALSE(caches.store(sample_entry("tuned")));
    EXPECT_EQ(warnings_.size(), 1u) << warnings_.back();
    EXPECT_FALSE(std::filesystem::exists(local));
}

TEST_F(BuildCacheTest, AReadOnlyRemoteNeverPublishesAndTheLocalCacheStillGetsTheResult) {
    BuildCache caches(config(RemoteMode::kReadOnly), collect());
    EXPECT_FALSE(caches.store(sample_entry("tuned")));
    EXPECT_TRUE(warnings_.empty()) << warnings_[0];  // not even tried: nothing to report
    EXPECT_TRUE(caches.local().contains(sample_entry("tuned").key));
}

TEST_F(BuildCacheTest, AReadWriteBuildWithoutASigningKeySaysWhyItDoesNotPublish) {
    BuildCache caches(config(RemoteMode::kReadWrite), collect());
    EXPECT_FALSE(caches.store(sample_entry("tuned")));
    ASSERT_EQ(warnings_.size(), 1u);
    EXPECT_NE(warnings_[0].find("is unsigned"), std::string::npos) << warnings_[0];
    EXPECT_NE(warnings_[0].find("OPTIML_SIGNING_KEY"), std::string::npos) << warnings_[0];
    EXPECT_TRUE(caches.local().contains(sample_entry("tuned").key));
}

TEST_F(BuildCacheTest, APublisherWithoutASigningKeyIsToldWhatToSetBeforeItTunes) {
    try {
        required_signing_key();
        ADD_FAILURE() << "no OPTIML_SIGNING_KEY was taken for a key";
    } catch (const CacheError& e) {
        const std::string why = e.what();
        EXPECT_EQ(why.rfind("OPTIML_SIGNING_KEY is not set, and builds accept only signed", 0), 0u)
            << why;
        EXPECT_NE(why.find("optiml cache keygen --out <dir>"), std::string::npos) << why;
        EXPECT_NE(why.find(kTrustedKeysFileName), std::string::npos) << why;
    }
    const auto pub = use_signing_key();
    std::ifstream line(pub);
    std::string algorithm, public_key;
    line >> algorithm >> public_key;
    EXPECT_EQ(required_signing_key().public_key(), public_key);
    ::setenv("OPTIML_SIGNING_KEY", pub.c_str(), 1);
    EXPECT_THROW(required_signing_key(), CacheError);  // a public key cannot sign
}

TEST_F(BuildCacheTest, PublishToRemoteReportsAnUnreachableServerOnce) {
    use_signing_key();
    EXPECT_FALSE(
        publish_to_remote(sample_entry("winner"), remote(RemoteMode::kReadWrite), collect()));
    ASSERT_EQ(warnings_.size(), 1u);
    EXPECT_EQ(warnings_[0].rfind("not published to the remote cache: remote cache " + url_, 0), 0u)
        << warnings_[0];
}

TEST_F(BuildCacheTest, TheRetunePublisherThrowsTheReasonAnEntryWasNotPublished) {
    use_signing_key();
    const auto publish = remote_publisher(remote(RemoteMode::kReadWrite));
    try {
        publish(sample_entry("winner"));
        ADD_FAILURE() << "an unreachable remote was taken for a publication";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind(
                      "not published to the remote cache: remote cache " + url_, 0),
                  0u)
            << e.what();
    }
}

}  // namespace
}  // namespace optiml::cache
