#include "cache/detail/atomic_write.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "cache/detail/entry_lock.h"
#include "cache/store.h"

namespace optiml::cache::detail {

namespace {

std::string unique_suffix() {
    // Seeded per thread from the OS, so forked writers and threads never share a sequence.
    thread_local std::mt19937_64 generator{std::random_device{}()};
    std::ostringstream suffix;
    suffix << ::getpid() << '.' << std::hex << generator();
    return suffix.str();
}

std::filesystem::path unique_name(const std::filesystem::path& staging_root,
                                  const std::string& label) {
    return staging_root / (label + "." + unique_suffix());
}

}  // namespace

std::filesystem::path make_staging_dir(const std::filesystem::path& staging_root,
                                       const std::string& label) {
    std::error_code error;
    std::filesystem::create_directories(staging_root, error);  // safe when others race us
    if (error) {
        throw CacheError(staging_root.string() + ": cannot create directory: " + error.message());
    }
    for (;;) {
        std::filesystem::path staging = unique_name(staging_root, label);
        // 0777 lets the umask decide (unlike mkdtemp's 0700), so shared caches stay readable.
        if (::mkdir(staging.c_str(), 0777) == 0) return staging;
        if (errno != EEXIST) {
            throw CacheError(staging.string() +
                             ": cannot create directory: " + std::strerror(errno));
        }
    }
}

Placement rename_into_place(const std::filesystem::path& staging,
                            const std::filesystem::path& destination) {
    if (::rename(staging.c_str(), destination.c_str()) == 0) return Placement::kPlaced;
    int error = errno;
    if (error == EEXIST || error == ENOTEMPTY) {
        std::error_code ignored;
        std::filesystem::remove_all(staging, ignored);
        return Placement::kAlreadyPresent;
    }
    throw CacheError("cannot rename " + staging.string() + " to " + destination.string() + ": " +
                     std::strerror(error));
}

Removal remove_directory_atomically(const std::filesystem::path& directory,
                                    const std::filesystem::path& staging_root,
                                    const std::string& label, bool if_unused) {
    std::error_code error;
    std::filesystem::create_directories(staging_root, error);
    if (error) {
        throw CacheError(staging_root.string() + ": cannot create directory: " + error.message());
    }
    std::filesystem::path doomed = unique_name(staging_root, label);
    {
        // Held until the folder is out of the way: a reader that opened it before waits for
        // the rename, then finds it gone (an absent entry, never a half-deleted one).
        const EntryLock lock(
            directory, if_unused ? EntryLock::Mode::kExclusiveIfFree : EntryLock::Mode::kExclusive);
        switch (lock.state()) {
            case EntryLock::State::kAbsent:
            case EntryLock::State::kReplaced:  // another remover was first (a writer may have
                return Removal::kAbsent;       // put a new one: not the one we meant to remove)
            case EntryLock::State::kBusy:
                return Removal::kInUse;
            case EntryLock::State::kHeld:
                break;
        }
        if (::rename(directory.c_str(), doomed.c_str()) != 0) {
            if (errno == ENOENT) return Removal::kAbsent;
            throw CacheError("cannot remove " + directory.string() + ": " + std::strerror(errno));
        }
    }
    std::filesystem::remove_all(doomed, error);
    if (error) {
        throw CacheError(doomed.string() + ": cannot delete: " + error.message() +
                         " (`optiml cache gc` retries later)");
    }
    return Removal::kRemoved;
}

}  // namespace optiml::cache::detail
