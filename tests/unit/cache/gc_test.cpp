#include <chrono>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "cache/store.h"
#include "scratch.h"

namespace optiml::cache {
namespace {

using testing::sample_entry;
using testing::ScratchDir;

std::uint64_t entry_bytes(const Store& store, const std::string& key) {
    std::uint64_t total = 0;
    for (const auto& file :
         std::filesystem::directory_iterator(store.root() / "entries" / key.substr(0, 2) / key)) {
        total += file.file_size();
    }
    return total;
}

// Sets when an entry was last used, hours_ago before now, without sleeping.
void mark_used(const Store& store, const std::string& key, int hours_ago) {
    const std::filesystem::path marker =
        store.root() / "entries" / key.substr(0, 2) / (key + ".used");
    ASSERT_TRUE(store.get(key));  // creates the marker
    std::filesystem::last_write_time(
        marker, std::filesystem::file_time_type::clock::now() - std::chrono::hours(hours_ago));
}

TEST(GcBySize, EvictsLeastRecentlyUsedUntilItFits) {
    ScratchDir scratch;
    Store store(scratch.path());
    const Entry oldest = sample_entry("oldest", 4096);
    const Entry middle = sample_entry("middle", 4096);
    const Entry newest = sample_entry("newest", 4096);
    for (const Entry* entry : {&newest, &oldest, &middle}) store.put(*entry);
    mark_used(store, oldest.key, 30);
    mark_used(store, middle.key, 20);
    mark_used(store, newest.key, 10);

    // Room for the two most recent but not all three.
    const std::uint64_t budget = entry_bytes(store, middle.key) + entry_bytes(store, newest.key);
    EXPECT_EQ(store.gc(budget), std::vector<std::string>{oldest.key});
    EXPECT_FALSE(store.contains(oldest.key));
    EXPECT_TRUE(store.contains(middle.key));
    EXPECT_TRUE(store.contains(newest.key));

    // Reading the middle entry makes it the most recent; now the newest-written one goes.
    ASSERT_TRUE(store.get(middle.key));
    EXPECT_EQ(store.gc(entry_bytes(store, middle.key)), std::vector<std::string>{newest.key});
    EXPECT_EQ(store.keys(), std::vector<std::string>{middle.key});
}

TEST(GcBySize, NothingRemovedWhenItFitsOrWithoutALimit) {
    ScratchDir scratch;
    Store store(scratch.path());
    store.put(sample_entry("a"));
    store.put(sample_entry("b"));
    EXPECT_TRUE(store.gc(std::nullopt).empty());
    EXPECT_TRUE(store.gc(std::uint64_t{1} << 40).empty());
    EXPECT_EQ(store.keys().size(), 2U);
    EXPECT_EQ(store.gc(0).size(), 2U);
    EXPECT_TRUE(store.keys().empty());
}

TEST(GcStaging, RemovesStaleStagingButNotFreshOnes) {
    ScratchDir scratch;
    Store store(scratch.path());
    store.put(sample_entry("a"));
    const std::filesystem::path stale = scratch.path() / "tmp" / "crashed.123.abc";
    const std::filesystem::path fresh = scratch.path() / "tmp" / "writing.456.def";
    std::filesystem::create_directories(stale);
    std::filesystem::create_directories(fresh);
    std::filesystem::last_write_time(
        stale, std::filesystem::file_time_type::clock::now() - std::chrono::hours(2));
    EXPECT_TRUE(store.gc(std::nullopt).empty());
    EXPECT_FALSE(std::filesystem::exists(stale));
    EXPECT_TRUE(std::filesystem::exists(fresh));
}

TEST(GcMarkers, RemovesMarkersWhoseEntryIsGone) {
    ScratchDir scratch;
    Store store(scratch.path());
    const Entry entry = sample_entry("a");
    store.put(entry);
    const std::string gone = sha256_hex("gone");
    const std::filesystem::path orphan =
        scratch.path() / "entries" / gone.substr(0, 2) / (gone + ".used");
    std::filesystem::create_directories(orphan.parent_path());
    { std::ofstream touch(orphan); }
    store.gc(std::nullopt);
    EXPECT_FALSE(std::filesystem::exists(orphan));
    EXPECT_TRUE(store.contains(entry.key));
}

}  // namespace
}  // namespace optiml::cache
