#include "driver/base/atomic_write.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace optiml::base {
namespace {

std::string system_error(const std::string& what, const std::string& path) {
    return what + " " + path + ": " + std::strerror(errno);
}

bool write_all(int fd, std::string_view contents) {
    while (!contents.empty()) {
        const ssize_t n = ::write(fd, contents.data(), contents.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        contents.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

}  // namespace

std::string try_write_file_atomically(const std::filesystem::path& path,
                                      std::string_view contents) {
    std::string temporary = path.string() + ".tmp.XXXXXX";
    const int fd = ::mkstemp(temporary.data());
    if (fd < 0) return system_error("cannot create a temporary file for", path.string());
    // mkstemp makes it 0600; the file gets what a plain create would (0666 less the umask).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    const bool written = write_all(fd, contents);
    const std::string write_error = written ? "" : system_error("cannot write", temporary);
    if (::close(fd) != 0 || !written) {
        const std::string reason = written ? system_error("cannot write", temporary) : write_error;
        ::unlink(temporary.c_str());
        return reason;
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string reason =
            system_error("cannot rename " + temporary + " to", path.string());
        ::unlink(temporary.c_str());
        return reason;
    }
    return "";
}

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
    if (const std::string reason = try_write_file_atomically(path, contents); !reason.empty())
        throw std::runtime_error(reason);
}

}  // namespace optiml::base
