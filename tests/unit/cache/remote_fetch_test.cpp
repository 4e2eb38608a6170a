// What the remote's answers make of an entry (cache/detail/remote_fetch.h), given as values: a
// hit is the manifest and its blobs, each blob checked against the digest it is stored under;
// damage names the URL; other statuses go to the backend's handler.
#include <map>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "cache/detail/manifest.h"
#include "cache/detail/remote_fetch.h"
#include "scratch.h"

namespace optiml::cache {
namespace {

using testing::sample_entry;

const std::string kUrl = "http://cache.example:8080";

class Unusable : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A server holding `answers` (path -> status and body); any other path is 404.
struct Server {
    std::map<std::string, base::HttpResponse> answers;
    std::vector<std::string> asked;

    std::optional<Entry> fetch(const std::string& key) {
        return detail::entry_from_answers(
            kUrl, key,
            [this](const std::string& path) {
                asked.push_back(path);
                const auto found = answers.find(path);
                return found == answers.end() ? base::HttpResponse{404, "Not Found", {}, false, {}}
                                              : found->second;
            },
            [](const std::string& path, const base::HttpResponse& response) {
                throw Unusable(path + " " + std::to_string(response.status));
            });
    }
    void hold(const Entry& entry) {
        const nlohmann::json manifest = detail::manifest_to_store(entry);
        answers["/ac/" + entry.key] = {200, manifest.dump(), {}, false, {}};
        for (const auto& [name, digest] : manifest["sha256"].items())
            answers["/cas/" + digest.get<std::string>()] = {
                200, entry.files.at(name), {}, false, {}};
    }
    std::string damage(const std::string& key) {
        try {
            fetch(key);
        } catch (const DamagedEntryError& error) {
            return error.what();
        }
        ADD_FAILURE() << "no DamagedEntryError";
        return "";
    }
};

TEST(RemoteFetch, AHitIsTheManifestAndEveryBlobItLists) {
    const Entry entry = sample_entry("hit");
    Server server;
    server.hold(entry);
    const std::optional<Entry> fetched = server.fetch(entry.key);
    ASSERT_TRUE(fetched);
    EXPECT_EQ(fetched->files, entry.files);
    EXPECT_EQ(fetched->manifest["kernel"], "hit");
    EXPECT_EQ(server.asked.front(), "/ac/" + entry.key);
    EXPECT_EQ(server.asked.size(), 3u);
}

TEST(RemoteFetch, AnAbsentManifestIsAMissAndAnErrorStatusGoesToTheHandler) {
    Server server;
    EXPECT_FALSE(server.fetch(sample_entry("absent").key));
    server.answers["/ac/" + sample_entry("absent").key] = {503, "busy", {}, false, {}};
    EXPECT_THROW(server.fetch(sample_entry("absent").key), Unusable);
}

TEST(RemoteFetch, ABlobWhoseBytesDoNotMatchItsDigestIsRejectedNamingItsUrl) {
    const Entry entry = sample_entry("tampered");
    Server server;
    server.hold(entry);
    const std::string digest = sha256_hex(entry.files.at("kernel.cubin"));
    server.answers["/cas/" + digest].body += "!";
    const std::string why = server.damage(entry.key);
    EXPECT_NE(why.find(kUrl + "/cas/" + digest + " (kernel.cubin of entry"), std::string::npos)
        << why;
    EXPECT_NE(why.find("not the digest it is stored under"), std::string::npos) << why;
}

TEST(RemoteFetch, AMissingBlobOrAManifestThatIsNotOneIsDamage) {
    const Entry entry = sample_entry("damaged");
    Server server;
    server.hold(entry);
    server.answers.erase("/cas/" + sha256_hex(entry.files.at("kernel.ptx")));
    EXPECT_NE(server.damage(entry.key).find("missing on the server"), std::string::npos);
    server.answers["/ac/" + entry.key].body = "[1, 2]";
    EXPECT_NE(server.damage(entry.key).find(kUrl + "/ac/" + entry.key + ": not a JSON object"),
              std::string::npos);
    server.answers["/ac/" + entry.key].body = "{\"key\": 1e400}";
    EXPECT_NE(server.damage(entry.key).find(": not valid JSON"), std::string::npos);
}

}  // namespace
}  // namespace optiml::cache
