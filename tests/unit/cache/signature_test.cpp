// Signing entries and checking them against trusted keys (cache/signature.h, cache/trust.h).
#include <fstream>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "cache/build_cache.h"
#include "cache/lookup_chain.h"
#include "cache/remote_transfer.h"
#include "cache/signature.h"
#include "cache/trust.h"
#include "scratch.h"

namespace optiml::cache {
namespace {

using testing::sample_entry;
using testing::ScratchDir;

class SignatureTest : public ::testing::Test {
  protected:
    // A key pair under the scratch folder; returns its private key. `name` tells them apart.
    SigningKey make_key(const std::string& name) {
        write_key_pair(scratch_.path() / "keys", name, name + " test key");
        return SigningKey::load(scratch_.path() / "keys" / (name + ".pem"));
    }
    TrustedKeys trusting(const std::string& name) {
        TrustedKeys keys;
        EXPECT_TRUE(keys.add_file(scratch_.path() / "keys" / (name + ".pub")));
        return keys;
    }
    static std::string rejection(const TrustedKeys& keys, const Entry& entry) {
        try {
            keys.require_signed(entry, "seed /somewhere");
        } catch (const UntrustedEntryError& e) {
            return e.what();
        }
        return "";
    }
    ScratchDir scratch_;
};

TEST_F(SignatureTest, KeygenWritesAPrivateKeyOnlyItsOwnerCanReadAndAPublicKeyLine) {
    const SigningKey key = make_key("runner");
    struct stat status {};
    ASSERT_EQ(::stat((scratch_.path() / "keys" / "runner.pem").c_str(), &status), 0);
    EXPECT_EQ(status.st_mode & 077, 0u) << std::oct << status.st_mode;
    std::ifstream pub(scratch_.path() / "keys" / "runner.pub");
    std::string line;
    std::getline(pub, line);
    EXPECT_EQ(line, "ed25519 " + key.public_key() + " runner test key");
    EXPECT_THROW(write_key_pair(scratch_.path() / "keys", "runner", "again"), CacheError);
}

TEST_F(SignatureTest, AnEntrySignedByATrustedKeyIsAccepted) {
    const Entry entry = signed_entry(sample_entry("trusted"), make_key("runner"));
    EXPECT_EQ(rejection(trusting("runner"), entry), "");
    EXPECT_EQ(entry.manifest["signature"]["algorithm"], "ed25519");
}

TEST_F(SignatureTest, AnUnsignedEntryIsRejectedAsUnsigned) {
    make_key("runner");
    Store store(scratch_.path() / "store");
    store.put(sample_entry("unsigned"));
    const std::string why = rejection(trusting("runner"), *store.get(sample_entry("unsigned").key));
    EXPECT_NE(why.find("is unsigned"), std::string::npos) << why;
    EXPECT_NE(why.find("seed /somewhere"), std::string::npos) << why;
}

TEST_F(SignatureTest, AnEntrySignedByAnUnlistedKeyIsRejectedNamingTheKey) {
    make_key("trusted");
    const SigningKey stranger = make_key("stranger");
    const std::string why =
        rejection(trusting("trusted"), signed_entry(sample_entry("foreign"), stranger));
    EXPECT_NE(why.find("signed by key " + stranger.public_key() + ", which no trusted-keys file"),
              std::string::npos)
        << why;
}

TEST_F(SignatureTest, AFileSwappedAfterSigningIsRejectedEvenWithAValidDigest) {
    Entry entry = signed_entry(sample_entry("swapped"), make_key("runner"));
    entry.files["kernel.cubin"] = "hostile machine code";
    entry.manifest["sha256"]["kernel.cubin"] = sha256_hex(entry.files["kernel.cubin"]);
    Store store(scratch_.path() / "store");
    store.put(entry);  // the digests are consistent: only the signature can tell
    const std::string why = rejection(trusting("runner"), *store.get(entry.key));
    EXPECT_NE(why.find("does not match its contents"), std::string::npos) << why;
}

TEST_F(SignatureTest, AManifestEditedAfterSigningIsRejected) {
    Entry entry = signed_entry(sample_entry("edited"), make_key("runner"));
    entry.manifest["arch"] = "sm_80";
    EXPECT_NE(rejection(trusting("runner"), entry).find("does not match"), std::string::npos);
}

// Found by fuzzing (issue 30): an algorithm that is not a string escaped as nlohmann's type_error.
TEST_F(SignatureTest, ASignatureWhoseAlgorithmIsNotAStringIsRejectedAsMalformed) {
    Entry entry = signed_entry(sample_entry("odd"), make_key("runner"));
    for (const nlohmann::json& algorithm : {nlohmann::json(5), nlohmann::json::array(),
                                            nlohmann::json(nullptr), nlohmann::json(true)}) {
        entry.manifest["signature"]["algorithm"] = algorithm;
        const std::string why = rejection(trusting("runner"), entry);
        EXPECT_NE(why.find("has a malformed \"signature\""), std::string::npos) << why;
        EXPECT_NE(why.find("seed /somewhere"), std::string::npos) << why;
    }
}

TEST_F(SignatureTest, ASignatureSurvivesTheStoreAndCoversEveryFileDigest) {
    const SigningKey key = make_key("runner");
    const Entry entry = signed_entry(sample_entry("stored"), key);
    Store store(scratch_.path() / "store");
    store.put(entry);
    const Entry read_back = *store.get(entry.key);
    EXPECT_EQ(rejection(trusting("runner"), read_back), "");
    // The message changes with any file's bytes, even where the manifest were left alone.
    std::map<std::string, std::string> other = read_back.files;
    other["kernel.ptx"] += " ";
    EXPECT_NE(signed_message(entry.key, read_back.manifest, read_back.files),
              signed_message(entry.key, read_back.manifest, other));
}

TEST_F(SignatureTest, AMalformedTrustedKeysLineNamesTheFileAndLine) {
    const auto file = scratch_.path() / "trusted-keys.txt";
    std::ofstream(file) << "# the project's tuners\n\nssh-rsa AAAA bob\n";
    TrustedKeys keys;
    try {
        keys.add_file(file);
        FAIL() << "no error";
    } catch (const CacheError& e) {
        EXPECT_NE(std::string(e.what()).find(file.string() + ":3: not a trusted key"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_FALSE(keys.add_file(scratch_.path() / "absent.txt"));
}

TEST_F(SignatureTest, SigningASeedInPlaceSignsEachEntryOnceAndLeavesNoStagingFolder) {
    const SigningKey key = make_key("runner");
    const auto seed = scratch_.path() / "seed";
    Store(seed).put(sample_entry("a"));
    Store(seed).put(sample_entry("b"));
    EXPECT_EQ(sign_entries(seed, {}, key).size(), 2u);
    EXPECT_TRUE(sign_entries(seed, {}, key).empty());  // already signed by this key
    EXPECT_FALSE(std::filesystem::exists(seed / "tmp"));
    const Store read_only(seed, /*read_only=*/true);
    for (const auto& result : read_only.verify()) EXPECT_TRUE(result.ok) << result.problem;
    EXPECT_EQ(rejection(trusting("runner"), *read_only.get(sample_entry("a").key)), "");
}

TEST_F(SignatureTest, ABuildSkipsAnUnsignedSeedEntryWithItsReasonAndUsesASignedOne) {
    const SigningKey key = make_key("runner");
    const auto seed = scratch_.path() / "seed";
    Store(seed).put(sample_entry("unsigned"));
    Store(seed).put(signed_entry(sample_entry("signed"), key));
    std::filesystem::copy_file(scratch_.path() / "keys" / "runner.pub",
                               seed / kTrustedKeysFileName);
    std::vector<std::string> warnings;
    BuildCache caches({scratch_.path() / "local", {seed}, std::nullopt, {}},
                      [&](const std::string& w) { warnings.push_back(w); });
    EXPECT_FALSE(caches.fetch(sample_entry("unsigned").key));
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].rfind("rejecting an untrusted cache entry: seed ", 0), 0u) << warnings[0];
    EXPECT_NE(warnings[0].find("is unsigned"), std::string::npos) << warnings[0];
    const auto found = caches.fetch(sample_entry("signed").key);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->where.rfind("seed ", 0), 0u) << found->where;
    EXPECT_EQ(warnings.size(), 1u);
}

TEST_F(SignatureTest, UnsignedLocalEntriesStayUsable) {
    Store(scratch_.path() / "local").put(sample_entry("tuned here"));
    std::vector<std::string> warnings;
    BuildCache caches({scratch_.path() / "local", {}, std::nullopt, {}},
                      [&](const std::string& w) { warnings.push_back(w); });
    EXPECT_TRUE(caches.fetch(sample_entry("tuned here").key));
    EXPECT_TRUE(warnings.empty());
}

TEST_F(SignatureTest, PublishingRefusesAnUnsignedEntryWithoutAKey) {
    try {
        entry_to_publish(sample_entry("x"), std::nullopt);
        FAIL() << "no error";
    } catch (const CacheError& e) {
        EXPECT_NE(std::string(e.what()).find("OPTIML_SIGNING_KEY"), std::string::npos);
    }
    const Entry signed_copy = signed_entry(sample_entry("x"), make_key("runner"));
    EXPECT_EQ(entry_to_publish(signed_copy, std::nullopt).manifest, signed_copy.manifest);
}

}  // namespace
}  // namespace optiml::cache
