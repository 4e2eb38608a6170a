#include "cache/store.h"

#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "cache/backend.h"
#include "scratch.h"

namespace optiml::cache {
namespace {

using testing::sample_entry;
using testing::ScratchDir;

std::filesystem::path entry_path(const Store& store, const std::string& key) {
    return store.root() / "entries" / key.substr(0, 2) / key;
}

TEST(StoreRoundTrip, GetReturnsWhatPutStored) {
    ScratchDir scratch;
    Store store(scratch.path() / "cache");
    const Entry original = sample_entry("saxpy");
    store.put(original);

    std::optional<Entry> read = store.get(original.key);
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(read->key, original.key);
    EXPECT_EQ(read->files, original.files);
    EXPECT_EQ(read->directory, entry_path(store, original.key));
    // The tuner's fields come back unchanged; the store adds its own.
    for (const auto& [field, value] : original.manifest.items()) {
        EXPECT_EQ(read->manifest.at(field), value) << field;
    }
    EXPECT_EQ(read->manifest.at("key"), original.key);
    EXPECT_EQ(read->manifest.at("sha256").size(), 2U);
    EXPECT_EQ(read->manifest.at("sha256").at("kernel.cubin"),
              sha256_hex(original.files.at("kernel.cubin")));
}

TEST(StoreRoundTrip, OnDiskLayoutIsTheDocumentedOne) {
    ScratchDir scratch;
    Store store(scratch.path());
    const Entry entry = sample_entry("layout");
    store.put(entry);
    const std::filesystem::path directory = entry_path(store, entry.key);
    EXPECT_TRUE(std::filesystem::is_regular_file(directory / "manifest.json"));
    EXPECT_EQ(std::filesystem::file_size(directory / "kernel.cubin"),
              entry.files.at("kernel.cubin").size());
    std::ifstream manifest(directory / "manifest.json");
    EXPECT_EQ(nlohmann::json::parse(manifest).at("kernel"), "layout");
    EXPECT_TRUE(std::filesystem::is_empty(store.root() / "tmp"));
}

TEST(StoreRoundTrip, EntryWithoutFilesAndNullManifest) {
    ScratchDir scratch;
    Store store(scratch.path());
    Entry bare;
    bare.key = sha256_hex("bare");
    store.put(bare);
    std::optional<Entry> read = store.get(bare.key);
    ASSERT_TRUE(read);
    EXPECT_TRUE(read->files.empty());
    EXPECT_EQ(read->manifest.at("sha256"), nlohmann::json::object());
    EXPECT_FALSE(read->manifest.contains("files"));
}

TEST(StoreRoundTrip, FilesMayAlsoBeAListOfNames) {
    ScratchDir scratch;
    Store store(scratch.path());
    Entry entry = sample_entry("listed");
    entry.manifest["files"] = {"kernel.ptx", "kernel.cubin"};
    store.put(entry);
    EXPECT_EQ(store.get(entry.key)->manifest.at("files"), entry.manifest.at("files"));
}

TEST(StoreLookup, AbsentKeyIsNulloptAndNotContained) {
    ScratchDir scratch;
    Store store(scratch.path() / "never-written");
    const std::string key = sha256_hex("absent");
    EXPECT_FALSE(store.get(key).has_value());
    EXPECT_FALSE(store.contains(key));
    EXPECT_TRUE(store.keys().empty());
    EXPECT_FALSE(std::filesystem::exists(scratch.path() / "never-written"));
}

TEST(StoreLookup, KeysAreSortedAndIgnoreMarkersAndStrayFiles) {
    ScratchDir scratch;
    Store store(scratch.path());
    std::vector<std::string> expected;
    for (const char* name : {"c", "a", "b", "d"}) {
        Entry entry = sample_entry(name);
        store.put(entry);
        expected.push_back(entry.key);
        ASSERT_TRUE(store.get(entry.key));  // leaves a <key>.used marker beside it
    }
    std::ofstream(scratch.path() / "entries" / "README") << "stray";
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(store.keys(), expected);
    EXPECT_TRUE(store.contains(expected[0]));
}

TEST(StoreLookup, RejectsSomethingThatIsNotAKey) {
    ScratchDir scratch;
    Store store(scratch.path());
    for (const std::string& bad :
         std::vector<std::string>{"../../etc", "ABCDEF", "", std::string(64, 'g')}) {
        try {
            store.get(bad);
            FAIL() << "accepted '" << bad << "'";
        } catch (const CacheError& error) {
            EXPECT_NE(std::string(error.what()).find("64 lowercase hex"), std::string::npos);
        }
    }
}

TEST(StorePut, SameKeyTwiceKeepsTheFirst) {
    ScratchDir scratch;
    Store store(scratch.path());
    Entry first = sample_entry("twice");
    Entry second = first;
    second.manifest["kernel"] = "second";
    EXPECT_TRUE(store.insert(first));
    EXPECT_FALSE(store.insert(second));
    store.put(second);  // no error either
    EXPECT_EQ(store.get(first.key)->manifest.at("kernel"), "twice");
    EXPECT_TRUE(std::filesystem::is_empty(store.root() / "tmp"));
}

TEST(StorePut, RejectsFileNamesThatAreNotPlainNames) {
    ScratchDir scratch;
    Store store(scratch.path());
    for (const std::string& bad :
         std::vector<std::string>{"../escape", "a/b", "manifest.json", "", ".."}) {
        Entry entry = sample_entry("names");
        entry.files[bad] = "x";
        EXPECT_THROW(store.put(entry), CacheError) << bad;
        EXPECT_FALSE(store.contains(entry.key));
    }
    EXPECT_FALSE(std::filesystem::exists(store.root() / "tmp")) << "checked before staging";
}

TEST(StorePut, RejectsAManifestNamingAFileItDoesNotHave) {
    ScratchDir scratch;
    Store store(scratch.path());
    Entry entry = sample_entry("dangling");
    entry.files.erase("kernel.ptx");
    try {
        store.put(entry);
        FAIL() << "stored a manifest that names a missing file";
    } catch (const CacheError& error) {
        EXPECT_NE(std::string(error.what()).find("'kernel.ptx'"), std::string::npos);
    }
    entry.manifest["files"] = {{"cubin", 42}};
    EXPECT_THROW(store.put(entry), CacheError);
    EXPECT_FALSE(store.contains(entry.key));
}

TEST(StorePut, RejectsAManifestThatIsNotAnObject) {
    ScratchDir scratch;
    Store store(scratch.path());
    Entry entry = sample_entry("array");
    entry.manifest = nlohmann::json::array({1, 2});
    EXPECT_THROW(store.put(entry), CacheError);
}

TEST(StoreRemove, RemovesOnceAndOnlyThatEntry) {
    ScratchDir scratch;
    Store store(scratch.path());
    const Entry kept = sample_entry("kept");
    const Entry gone = sample_entry("gone");
    store.put(kept);
    store.put(gone);
    ASSERT_TRUE(store.get(gone.key));
    EXPECT_TRUE(store.remove(gone.key));
    EXPECT_FALSE(store.remove(gone.key));
    EXPECT_FALSE(store.get(gone.key));
    EXPECT_FALSE(std::filesystem::exists(scratch.path() / "entries" / gone.key.substr(0, 2) /
                                         (gone.key + ".used")));
    EXPECT_EQ(store.keys(), std::vector<std::string>{kept.key});
}

TEST(StoreRecency, GetTouchesTheUsedMarker) {
    ScratchDir scratch;
    Store store(scratch.path());
    const Entry entry = sample_entry("recency");
    store.put(entry);
    const std::filesystem::path marker =
        scratch.path() / "entries" / entry.key.substr(0, 2) / (entry.key + ".used");
    ASSERT_TRUE(store.get(entry.key));
    ASSERT_TRUE(std::filesystem::exists(marker));
    const auto long_ago = std::filesystem::last_write_time(marker) - std::chrono::hours(48);
    std::filesystem::last_write_time(marker, long_ago);
    ASSERT_TRUE(store.get(entry.key));
    EXPECT_GT(std::filesystem::last_write_time(marker), long_ago);
}

TEST(StoreRecency, InspectAndVerifyAreNotUses) {
    ScratchDir scratch;
    Store store(scratch.path());
    const Entry entry = sample_entry("inspected");
    store.put(entry);
    ASSERT_TRUE(store.inspect(entry.key));
    EXPECT_EQ(store.inspect(entry.key)->files, entry.files);
    ASSERT_EQ(store.verify().size(), 1U);
    EXPECT_FALSE(std::filesystem::exists(scratch.path() / "entries" / entry.key.substr(0, 2) /
                                         (entry.key + ".used")));
}

TEST(ReadOnlyStore, ReadsButRefusesEveryWrite) {
    ScratchDir scratch;
    const Entry entry = sample_entry("seed");
    Store(scratch.path()).put(entry);

    Store seed(scratch.path(), /*read_only=*/true);
    EXPECT_TRUE(seed.read_only());
    ASSERT_TRUE(seed.get(entry.key));
    EXPECT_FALSE(std::filesystem::exists(scratch.path() / "entries" / entry.key.substr(0, 2) /
                                         (entry.key + ".used")))
        << "a read-only store must not write LRU markers";
    try {
        seed.put(sample_entry("other"));
        FAIL() << "put succeeded on a read-only store";
    } catch (const CacheError& error) {
        EXPECT_NE(std::string(error.what()).find("read-only"), std::string::npos);
        EXPECT_NE(std::string(error.what()).find(scratch.path().string()), std::string::npos);
    }
    EXPECT_THROW(seed.insert(sample_entry("other")), CacheError);
    EXPECT_THROW(seed.remove(entry.key), CacheError);
    EXPECT_THROW(seed.gc(std::nullopt), CacheError);
    EXPECT_THROW(seed.import_from(scratch.path()), CacheError);
    EXPECT_EQ(seed.keys(), std::vector<std::string>{entry.key});
    EXPECT_FALSE(Store(scratch.path()).contains(sample_entry("other").key));
}

TEST(ReadOnlyStore, MissingOrForeignFolderIsAClearError) {
    ScratchDir scratch;
    try {
        Store seed(scratch.path() / "no-such-seed", /*read_only=*/true);
        FAIL() << "opened a missing seed cache";
    } catch (const CacheError& error) {
        EXPECT_NE(std::string(error.what()).find("no-such-seed"), std::string::npos);
        EXPECT_NE(std::string(error.what()).find("optiml cache export"), std::string::npos);
    }
    try {
        Store seed(scratch.path(), /*read_only=*/true);  // exists, but no entries/
        FAIL() << "opened a folder that is not a cache";
    } catch (const CacheError& error) {
        EXPECT_NE(std::string(error.what()).find("entries/"), std::string::npos);
    }
}

TEST(LocalBackend, FetchesAndPublishesThroughTheStore) {
    ScratchDir scratch;
    LocalBackend backend{Store(scratch.path())};
    const Entry entry = sample_entry("backend");
    EXPECT_TRUE(backend.writable());
    EXPECT_EQ(backend.location(), Store(scratch.path()).root().string());
    EXPECT_FALSE(backend.fetch(entry.key));
    EXPECT_TRUE(backend.publish(entry));
    EXPECT_FALSE(backend.publish(entry));
    EXPECT_EQ(backend.fetch(entry.key)->files, entry.files);
}

// Whether a store can be written is judged without writing: a folder not made yet by the
// nearest one above it, and nothing is created by asking.
TEST(StoreWriteProblem, NoneForAWritableFolderAndNothingCreatedByAsking) {
    ScratchDir scratch;
    const Store store(scratch.path() / "not" / "yet");
    EXPECT_EQ(store.write_problem(), std::nullopt);
    EXPECT_FALSE(std::filesystem::exists(scratch.path() / "not"));
}

TEST(StoreWriteProblem, NamedForASeedAndForAFolderWithoutRoom) {
    ScratchDir scratch;
    Store(scratch.path()).put(sample_entry("seeded"));
    EXPECT_NE(Store(scratch.path(), /*read_only=*/true).write_problem(), std::nullopt);
    // /proc has no free block (and, for a user other than root, no write permission).
    EXPECT_NE(Store("/proc/optiml-cache-test").write_problem(), std::nullopt);
}

}  // namespace
}  // namespace optiml::cache
