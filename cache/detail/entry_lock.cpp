#include "cache/detail/entry_lock.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/store.h"

namespace optiml::cache::detail {

namespace {

int operation(EntryLock::Mode mode) {
    switch (mode) {
        case EntryLock::Mode::kShared:
            return LOCK_SH;
        case EntryLock::Mode::kExclusive:
            return LOCK_EX;
        case EntryLock::Mode::kExclusiveIfFree:
            return LOCK_EX | LOCK_NB;
    }
    return LOCK_SH;
}

// Whether `path` still names the folder open as `fd`: a remover renames the folder away (and a
// writer may put a new one in its place) between our open() and our lock.
bool still_there(int fd, const std::filesystem::path& path) {
    struct stat open_one {};
    struct stat named {};
    if (::fstat(fd, &open_one) != 0 || ::stat(path.c_str(), &named) != 0) return false;
    return open_one.st_dev == named.st_dev && open_one.st_ino == named.st_ino;
}

}  // namespace

EntryLock::EntryLock(const std::filesystem::path& directory, Mode mode) {
    fd_ = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) {
        if (errno == ENOENT || errno == ENOTDIR) return;  // kAbsent
        // Unreadable folder: reading its files fails with the reason, and removing it is a
        // rename in its parent, so go on without the lock.
        state_ = State::kHeld;
        return;
    }
    int result = 0;
    while ((result = ::flock(fd_, operation(mode))) != 0 && errno == EINTR) {
    }
    if (result != 0) {
        if (errno == EWOULDBLOCK) {
            state_ = State::kBusy;
            return;
        }
        // ENOLCK, EOPNOTSUPP...: a file system without flock; unlocked, as before locks existed.
    }
    state_ = still_there(fd_, directory) ? State::kHeld : State::kReplaced;
}

EntryLock::~EntryLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
}

}  // namespace optiml::cache::detail
