#include "driver/tune/gpu_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstdlib>

namespace optiml::tune {

GpuLock::GpuLock() {
    const char* path = std::getenv("OPTIML_LOCK_FILE");
    if (!path || !*path) path = "/tmp/optiml-gpu.lock";
    const mode_t old = umask(0);  // other users' builds share the lock
    fd_ = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    umask(old);
    if (fd_ >= 0) flock(fd_, LOCK_EX);
}

GpuLock::~GpuLock() {
    if (fd_ >= 0) {
        flock(fd_, LOCK_UN);
        close(fd_);
    }
}

}  // namespace optiml::tune
