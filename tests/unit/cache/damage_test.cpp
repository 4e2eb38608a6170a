// Damaged entries are reported with the path, the problem and the fix; never returned.
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "cache/store.h"
#include "scratch.h"

namespace optiml::cache {
namespace {

using testing::sample_entry;
using testing::ScratchDir;

class DamagedEntry : public ::testing::Test {
  protected:
    void SetUp() override { store_.put(entry_); }

    std::filesystem::path file(const std::string& name) const {
        return scratch_.path() / "entries" / entry_.key.substr(0, 2) / entry_.key / name;
    }
    void overwrite(const std::string& name, const std::string& bytes) const {
        std::ofstream(file(name), std::ios::binary | std::ios::trunc) << bytes;
    }
    // The message get() gives, which must also be what verify() reports.
    std::string damage_message() const {
        try {
            store_.get(entry_.key);
        } catch (const DamagedEntryError& error) {
            return error.what();
        }
        ADD_FAILURE() << "get() returned a damaged entry";
        return {};
    }

    ScratchDir scratch_;
    Store store_{scratch_.path()};
    Entry entry_ = sample_entry("damaged", 4096);
};

TEST_F(DamagedEntry, TruncatedFileIsDetected) {
    const std::string& cubin = entry_.files.at("kernel.cubin");
    overwrite("kernel.cubin", cubin.substr(0, cubin.size() / 2));
    const std::string message = damage_message();
    EXPECT_NE(message.find(file("kernel.cubin").string()), std::string::npos) << message;
    EXPECT_NE(message.find("SHA-256"), std::string::npos) << message;
    EXPECT_NE(message.find("optiml cache gc"), std::string::npos) << message;
}

TEST_F(DamagedEntry, MissingFileIsDetected) {
    std::filesystem::remove(file("kernel.ptx"));
    const std::string message = damage_message();
    EXPECT_NE(message.find(file("kernel.ptx").string() + ": missing"), std::string::npos)
        << message;
}

TEST_F(DamagedEntry, CorruptManifestNamesTheLine) {
    overwrite("manifest.json", "{\n  \"key\": \"x\",\n  \"files\": [,\n}\n");
    const std::string message = damage_message();
    EXPECT_NE(message.find(file("manifest.json").string() + ": not valid JSON (line 3"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("optiml cache gc"), std::string::npos) << message;
}

// Found by fuzzing (issue 30): nlohmann reports a number beyond a double as out_of_range, which
// escaped the reader instead of naming the damaged manifest.
TEST_F(DamagedEntry, ManifestWithANumberTooLargeForADoubleIsDetected) {
    overwrite("manifest.json", "{\"key\": \"x\", \"speedup\": 0.11e3092639999389648438}");
    const std::string message = damage_message();
    EXPECT_NE(message.find(file("manifest.json").string() + ": not valid JSON (a number too large"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("optiml cache gc"), std::string::npos) << message;
}

TEST_F(DamagedEntry, MissingManifestIsDetected) {
    std::filesystem::remove(file("manifest.json"));
    EXPECT_NE(damage_message().find("manifest.json: missing"), std::string::npos);
}

TEST_F(DamagedEntry, ManifestFromAnotherKeyIsDetected) {
    nlohmann::json manifest = store_.get(entry_.key)->manifest;
    manifest["key"] = sha256_hex("another");
    overwrite("manifest.json", manifest.dump());
    EXPECT_NE(damage_message().find("folder is named"), std::string::npos);
}

TEST_F(DamagedEntry, ManifestWithoutHashesIsDetected) {
    nlohmann::json manifest = store_.get(entry_.key)->manifest;
    manifest.erase("sha256");
    overwrite("manifest.json", manifest.dump());
    EXPECT_NE(damage_message().find("\"sha256\" is missing"), std::string::npos);
}

TEST_F(DamagedEntry, FilesNamingAnUnhashedFileIsDetected) {
    nlohmann::json manifest = store_.get(entry_.key)->manifest;
    manifest["files"]["sass"] = "kernel.sass";
    overwrite("manifest.json", manifest.dump());
    EXPECT_NE(damage_message().find("'kernel.sass'"), std::string::npos);
}

TEST_F(DamagedEntry, ManifestNamingAPathOutsideTheEntryIsDetected) {
    nlohmann::json manifest = store_.get(entry_.key)->manifest;
    manifest["sha256"]["../../escape"] = sha256_hex("");
    overwrite("manifest.json", manifest.dump());
    EXPECT_NE(damage_message().find("not a plain file name"), std::string::npos);
}

TEST_F(DamagedEntry, VerifyReportsOnlyTheDamagedEntry) {
    const Entry healthy = sample_entry("healthy");
    store_.put(healthy);
    overwrite("kernel.ptx", "tampered");
    const std::string expected_problem = damage_message();
    std::vector<Store::VerifyResult> results = store_.verify();
    ASSERT_EQ(results.size(), 2U);
    for (const Store::VerifyResult& result : results) {
        if (result.key == healthy.key) {
            EXPECT_TRUE(result.ok);
            EXPECT_TRUE(result.problem.empty());
        } else {
            EXPECT_EQ(result.key, entry_.key);
            EXPECT_FALSE(result.ok);
            EXPECT_EQ(result.problem, expected_problem);
        }
    }
}

TEST_F(DamagedEntry, GcRemovesItAndKeepsHealthyOnes) {
    const Entry healthy = sample_entry("healthy");
    store_.put(healthy);
    overwrite("kernel.cubin", "");
    EXPECT_EQ(store_.gc(std::nullopt), std::vector<std::string>{entry_.key});
    EXPECT_EQ(store_.keys(), std::vector<std::string>{healthy.key});
    EXPECT_FALSE(store_.get(entry_.key));
    // Once removed, a fresh put of the same key works again.
    store_.put(entry_);
    EXPECT_EQ(store_.get(entry_.key)->files, entry_.files);
}

TEST_F(DamagedEntry, ReadOnlyStoreGivesTheSeedCacheFix) {
    overwrite("kernel.cubin", "tampered");
    Store seed(scratch_.path(), /*read_only=*/true);
    try {
        seed.get(entry_.key);
        FAIL() << "damaged entry returned";
    } catch (const DamagedEntryError& error) {
        EXPECT_NE(std::string(error.what()).find("optiml cache export"), std::string::npos);
    }
}

}  // namespace
}  // namespace optiml::cache
