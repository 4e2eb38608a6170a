#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "cache/detail/entry_lock.h"
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

// An entry in use: a build reading it holds its folder's lock (shared) from before its first
// file until its last digest is checked (cache/detail/entry_lock.h).
class EntryInUse : public ::testing::Test {
  protected:
    Entry stored(const std::string& name, std::size_t bytes = 256) {
        Entry entry = sample_entry(name, bytes);
        store_.put(entry);
        return entry;
    }
    std::filesystem::path folder(const Entry& entry) const {
        return scratch_.path() / "entries" / entry.key.substr(0, 2) / entry.key;
    }
    detail::EntryLock::State state_of(const Entry& entry, detail::EntryLock::Mode mode) const {
        return detail::EntryLock(folder(entry), mode).state();
    }
    ScratchDir scratch_;
    Store store_{scratch_.path()};
};

// gc never takes an entry a build is reading, whatever its size limit asks, and says which it
// kept. The next gc, with the reader gone, takes it.
TEST_F(EntryInUse, GcNeverRemovesAnEntryABuildIsReading) {
    const Entry read = stored("being read", 4096);
    const Entry idle = stored("idle", 4096);
    std::vector<std::string> in_use;
    {
        const detail::EntryLock reader(folder(read), detail::EntryLock::Mode::kShared);
        ASSERT_EQ(reader.state(), detail::EntryLock::State::kHeld);
        EXPECT_EQ(state_of(read, detail::EntryLock::Mode::kExclusiveIfFree),
                  detail::EntryLock::State::kBusy);
        EXPECT_EQ(store_.gc(0, &in_use), std::vector<std::string>{idle.key});
        EXPECT_EQ(in_use, std::vector<std::string>{read.key});
        std::optional<Entry> still = store_.get(read.key);
        ASSERT_TRUE(still);
        EXPECT_EQ(still->files, read.files);
    }
    in_use.clear();
    EXPECT_EQ(store_.gc(0, &in_use), std::vector<std::string>{read.key});
    EXPECT_TRUE(in_use.empty());
    EXPECT_TRUE(store_.keys().empty());
}

// Damaged entries too: one a reader has open stays until the next gc.
TEST_F(EntryInUse, GcLeavesADamagedEntryBeingReadForTheNextGc) {
    const Entry entry = stored("damaged");
    { std::ofstream(folder(entry) / "kernel.cubin") << "torn"; }
    {
        const detail::EntryLock reader(folder(entry), detail::EntryLock::Mode::kShared);
        std::vector<std::string> in_use;
        EXPECT_TRUE(store_.gc(std::nullopt, &in_use).empty());
        EXPECT_EQ(in_use, std::vector<std::string>{entry.key});
    }
    EXPECT_EQ(store_.gc(std::nullopt), std::vector<std::string>{entry.key});
}

// remove() (a retune replacing its entry) waits for the readers instead of skipping.
TEST_F(EntryInUse, RemoveWaitsForTheReaderToFinish) {
    const Entry entry = stored("replaced");
    std::atomic<bool> reader_done{false};
    std::atomic<bool> locked{false};
    std::thread reader([&] {
        const detail::EntryLock lock(folder(entry), detail::EntryLock::Mode::kShared);
        locked = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        reader_done = true;
    });
    while (!locked) std::this_thread::yield();
    EXPECT_TRUE(store_.remove(entry.key));
    EXPECT_TRUE(reader_done) << "remove() took the entry away while it was being read";
    reader.join();
    EXPECT_FALSE(store_.contains(entry.key));
}

// The reader's side: a get() that comes while a remover holds the entry (to rename it away)
// waits, then finds it gone: an absent entry, never a damaged one.
TEST_F(EntryInUse, AReadDuringARemovalWaitsAndSeesNoEntry) {
    const Entry entry = stored("collected");
    std::optional<std::optional<Entry>> result;
    std::atomic<bool> started{false};
    std::atomic<bool> finished{false};
    std::thread reader;
    {
        const detail::EntryLock remover(folder(entry), detail::EntryLock::Mode::kExclusive);
        ASSERT_EQ(remover.state(), detail::EntryLock::State::kHeld);
        reader = std::thread([&] {
            started = true;
            result = store_.get(entry.key);
            finished = true;
        });
        while (!started) std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        EXPECT_FALSE(finished) << "the reader did not wait for the remover's lock";
        std::filesystem::create_directories(scratch_.path() / "tmp");
        std::filesystem::rename(folder(entry), scratch_.path() / "tmp" / "doomed");
    }
    reader.join();
    ASSERT_TRUE(result);
    EXPECT_FALSE(*result);
}

// A folder that was renamed away (taken by gc) is absent to a locker, not held.
TEST_F(EntryInUse, TheLockSaysWhetherTheFolderIsStillThere) {
    const Entry entry = stored("moved");
    EXPECT_EQ(state_of(entry, detail::EntryLock::Mode::kShared), detail::EntryLock::State::kHeld);
    std::filesystem::rename(folder(entry), scratch_.path() / "elsewhere");
    EXPECT_EQ(state_of(entry, detail::EntryLock::Mode::kShared), detail::EntryLock::State::kAbsent);
}

}  // namespace
}  // namespace optiml::cache
