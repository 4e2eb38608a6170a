#include "cache/detail/file_io.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/store.h"

namespace optiml::cache::detail {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const char* action, int error) {
    throw CacheError(path.string() + ": cannot " + action + ": " + std::strerror(error));
}

// Closes the descriptor on every path out of a function.
class FileDescriptor {
  public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    int get() const { return fd_; }
    // Close explicitly so that a failing close (e.g. a deferred NFS write error) is reported.
    int close() {
        int result = ::close(fd_);
        fd_ = -1;
        return result;
    }

  private:
    int fd_;
};

}  // namespace

std::optional<std::string> read_file(const std::filesystem::path& file) {
    FileDescriptor fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) {
        if (errno == ENOENT) return std::nullopt;
        fail(file, "open for reading", errno);
    }
    std::string bytes;
    char buffer[1 << 16];
    for (;;) {
        ssize_t count = ::read(fd.get(), buffer, sizeof buffer);
        if (count < 0) {
            if (errno == EINTR) continue;
            fail(file, "read", errno);
        }
        if (count == 0) break;
        bytes.append(buffer, static_cast<std::size_t>(count));
    }
    return bytes;
}

void write_file_synced(const std::filesystem::path& file, std::string_view bytes, unsigned mode) {
    FileDescriptor fd(::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode));
    if (fd.get() < 0) fail(file, "create", errno);
    std::size_t written = 0;
    while (written < bytes.size()) {
        ssize_t count = ::write(fd.get(), bytes.data() + written, bytes.size() - written);
        if (count < 0) {
            if (errno == EINTR) continue;
            fail(file, "write", errno);
        }
        written += static_cast<std::size_t>(count);
    }
    if (::fsync(fd.get()) != 0) fail(file, "fsync", errno);
    if (fd.close() != 0) fail(file, "close", errno);
}

void fsync_directory(const std::filesystem::path& directory) {
    FileDescriptor fd(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0) fail(directory, "open directory", errno);
    if (::fsync(fd.get()) != 0) fail(directory, "fsync directory", errno);
}

void touch(const std::filesystem::path& file) noexcept {
    FileDescriptor fd(::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666));
    if (fd.get() < 0) return;
    ::futimens(fd.get(), nullptr);
}

}  // namespace optiml::cache::detail
