// Internal to cache/: an advisory lock (flock(2)) on an entry's folder. A reader holds it shared
// while it reads and verifies the entry's files; gc and remove take it exclusive for the rename
// that takes the entry away, so neither ever removes an entry a build is reading. gc takes it
// without waiting and skips an entry that is in use; remove waits for the readers.
// The lock is advisory and best effort: where the file system has no flock (some network file
// systems), readers and removers go on unlocked, as before it existed.
#pragma once

#include <filesystem>

namespace optiml::cache::detail {

class EntryLock {
  public:
    enum class Mode { kShared, kExclusive, kExclusiveIfFree };
    enum class State {
        kHeld,      // locked (or the file system cannot lock: unlocked, go on)
        kAbsent,    // no such folder
        kReplaced,  // it was renamed away (or replaced) while we waited for the lock
        kBusy,      // kExclusiveIfFree only: another process holds a lock on it
    };

    EntryLock(const std::filesystem::path& directory, Mode mode);
    ~EntryLock();
    EntryLock(const EntryLock&) = delete;
    EntryLock& operator=(const EntryLock&) = delete;

    State state() const { return state_; }

  private:
    int fd_ = -1;
    State state_ = State::kAbsent;
};

}  // namespace optiml::cache::detail
