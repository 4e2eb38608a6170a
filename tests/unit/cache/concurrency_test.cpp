// Several processes writing, reading and collecting one store at once: no lost entry, no torn
// file, no partial entry ever visible, no staging folder left behind.
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache/store.h"
#include "scratch.h"

namespace optiml::cache {
namespace {

using testing::sample_entry;
using testing::ScratchDir;

constexpr int kWriters = 8;
constexpr int kReaders = 3;
constexpr int kSharedEntries = 24;  // every writer puts all of these
constexpr int kOwnEntries = 12;     // and these only it puts
constexpr std::size_t kPayloadBytes = 64 * 1024;

// Exit codes of the child processes, so a failure says what went wrong.
enum ChildStatus : int {
    kOk = 0,
    kWrongBytes = 3,
    kSawDamage = 4,
    kVerifyFailed = 5,
    kGcRemoved = 6,
    kOtherError = 7,
};

std::string describe(int status) {
    if (!WIFEXITED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
    switch (WEXITSTATUS(status)) {
        case kOk:
            return "ok";
        case kWrongBytes:
            return "read an entry whose bytes differ from what was put";
        case kSawDamage:
            return "saw a damaged (partial) entry";
        case kVerifyFailed:
            return "verify() reported a problem";
        case kGcRemoved:
            return "gc removed an entry while writers were running";
        default:
            return "failed with an exception";
    }
}

Entry shared_entry(int index) {
    return sample_entry("shared-" + std::to_string(index), kPayloadBytes);
}
Entry own_entry(int writer, int index) {
    return sample_entry("writer-" + std::to_string(writer) + "-" + std::to_string(index),
                        kPayloadBytes);
}

// Forked children run `body` and exit with its status; nothing of GoogleTest runs there.
class Children {
  public:
    Children() {
        if (::pipe(start_) != 0 || ::pipe(stop_) != 0) throw std::runtime_error("pipe failed");
    }
    pid_t spawn(const std::function<int(int stop_fd)>& body) {
        const pid_t pid = ::fork();
        if (pid != 0) return pid;
        ::close(start_[1]);
        ::close(stop_[1]);
        char byte;
        while (::read(start_[0], &byte, 1) > 0) {
        }  // blocks until the parent starts everyone at once
        int status = kOtherError;
        try {
            status = body(stop_[0]);
        } catch (const DamagedEntryError&) {
            status = kSawDamage;
        } catch (...) {
            status = kOtherError;
        }
        ::_exit(status);
    }
    void start_all() { ::close(start_[1]); }
    void stop_all() { ::close(stop_[1]); }
    static bool stop_requested(int stop_fd) {
        pollfd request{stop_fd, POLLIN, 0};
        return ::poll(&request, 1, 0) > 0;  // readable only at EOF: the parent closed it
    }
    static int wait(pid_t pid) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        return status;
    }

  private:
    int start_[2];
    int stop_[2];
};

int write_entries(const std::filesystem::path& root, int writer) {
    Store store(root);
    // Writers walk the shared keys from different starting points, so they collide on every
    // key at different moments, and interleave their own keys with the shared ones.
    for (int step = 0; step < kSharedEntries; ++step) {
        store.put(shared_entry((step + writer * 3) % kSharedEntries));
        if (step < kOwnEntries) store.put(own_entry(writer, step));
    }
    return kOk;
}

int read_while_writing(const std::filesystem::path& root, int stop_fd,
                       const std::map<std::string, Entry>& expected) {
    Store store(root);
    for (int round = 0;; ++round) {
        const bool last_round = Children::stop_requested(stop_fd);
        for (const auto& [key, entry] : expected) {
            std::optional<Entry> read = store.get(key);  // absent is fine; partial is not
            if (read && (read->files != entry.files ||
                         read->manifest.at("kernel") != entry.manifest.at("kernel"))) {
                return kWrongBytes;
            }
        }
        if (round % 4 == 0) {
            for (const Store::VerifyResult& result : store.verify()) {
                if (!result.ok) return kVerifyFailed;
            }
        }
        if (last_round) return kOk;
    }
}

int collect_while_writing(const std::filesystem::path& root, int stop_fd) {
    Store store(root);
    while (!Children::stop_requested(stop_fd)) {
        if (!store.gc(std::nullopt).empty()) return kGcRemoved;
    }
    return kOk;
}

TEST(ConcurrentStore, WritersReadersAndGcShareOneStore) {
    ScratchDir scratch;
    const std::filesystem::path root = scratch.path() / "cache";
    std::map<std::string, Entry> expected;
    for (int i = 0; i < kSharedEntries; ++i) {
        Entry entry = shared_entry(i);
        expected.emplace(entry.key, entry);
    }
    for (int writer = 0; writer < kWriters; ++writer) {
        for (int i = 0; i < kOwnEntries; ++i) {
            Entry entry = own_entry(writer, i);
            expected.emplace(entry.key, entry);
        }
    }
    ASSERT_EQ(expected.size(), static_cast<std::size_t>(kSharedEntries + kWriters * kOwnEntries));

    Children children;
    std::vector<pid_t> writers;
    std::vector<pid_t> observers;
    for (int reader = 0; reader < kReaders; ++reader) {
        observers.push_back(children.spawn(
            [&](int stop_fd) { return read_while_writing(root, stop_fd, expected); }));
    }
    observers.push_back(
        children.spawn([&](int stop_fd) { return collect_while_writing(root, stop_fd); }));
    for (int writer = 0; writer < kWriters; ++writer) {
        writers.push_back(children.spawn([&, writer](int) { return write_entries(root, writer); }));
    }
    children.start_all();
    for (std::size_t i = 0; i < writers.size(); ++i) {
        const int status = Children::wait(writers[i]);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == kOk)
            << "writer " << i << ": " << describe(status);
    }
    children.stop_all();
    for (std::size_t i = 0; i < observers.size(); ++i) {
        const int status = Children::wait(observers[i]);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == kOk)
            << (i < kReaders ? "reader " : "gc ") << i << ": " << describe(status);
    }

    Store store(root);
    std::vector<std::string> expected_keys;
    for (const auto& [key, entry] : expected) expected_keys.push_back(key);
    EXPECT_EQ(store.keys(), expected_keys) << "an entry was lost";
    for (const Store::VerifyResult& result : store.verify()) {
        EXPECT_TRUE(result.ok) << result.problem;
    }
    for (const auto& [key, entry] : expected) {
        std::optional<Entry> read = store.get(key);
        ASSERT_TRUE(read) << key;
        EXPECT_EQ(read->files, entry.files) << key;
        // Exactly the listed files plus the manifest: nothing half-written beside them.
        std::set<std::string> on_disk;
        for (const auto& item : std::filesystem::directory_iterator(read->directory)) {
            on_disk.insert(item.path().filename().string());
        }
        EXPECT_EQ(on_disk, (std::set<std::string>{"manifest.json", "kernel.cubin", "kernel.ptx"}));
    }
    std::vector<std::string> leftovers;
    for (const auto& item : std::filesystem::directory_iterator(root / "tmp")) {
        leftovers.push_back(item.path().filename().string());
    }
    EXPECT_TRUE(leftovers.empty()) << "staging folder left behind: " << leftovers.front();
}

// Removal (remove() and gc) renames an entry away whole: a reader racing it sees the entry
// complete or absent, never a half-deleted one reported as damaged.
TEST(ConcurrentStore, ReadersRacingRemovalSeeWholeOrAbsentEntries) {
    ScratchDir scratch;
    const std::filesystem::path root = scratch.path() / "cache";
    std::map<std::string, Entry> expected;
    for (int i = 0; i < 6; ++i) {
        Entry entry = shared_entry(i);
        expected.emplace(entry.key, entry);
    }
    Children children;
    std::vector<pid_t> readers;
    for (int reader = 0; reader < kReaders; ++reader) {
        readers.push_back(children.spawn(
            [&](int stop_fd) { return read_while_writing(root, stop_fd, expected); }));
    }
    const pid_t churner = children.spawn([&](int) {
        Store store(root);
        for (int round = 0; round < 60; ++round) {
            for (const auto& [key, entry] : expected) {
                store.put(entry);
                if (!store.remove(key)) return static_cast<int>(kOtherError);
            }
        }
        for (const auto& [key, entry] : expected) store.put(entry);
        return static_cast<int>(kOk);
    });
    children.start_all();
    const int churn_status = Children::wait(churner);
    EXPECT_TRUE(WIFEXITED(churn_status) && WEXITSTATUS(churn_status) == kOk)
        << "remover: " << describe(churn_status);
    children.stop_all();
    for (std::size_t i = 0; i < readers.size(); ++i) {
        const int status = Children::wait(readers[i]);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == kOk)
            << "reader " << i << ": " << describe(status);
    }
    Store store(root);
    EXPECT_EQ(store.keys().size(), expected.size());
    for (const Store::VerifyResult& result : store.verify())
        EXPECT_TRUE(result.ok) << result.problem;
}

}  // namespace
}  // namespace optiml::cache
