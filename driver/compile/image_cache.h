// Compiled images by content: a revisited candidate, a retune or a second spec with the same
// kernel compiles nothing. The key hashes everything the compiler sees (source text, the local
// headers it includes, options, defines, name expression, arch, output kind) and the compiler
// (NVRTC's version, or nvcc and its version); the image lives in a cache::Store of its own (atomic
// writes, digests checked on read, gc by LRU), under <cache root>/images. Only successful compiles
// are kept: a failure may be the machine's (out of memory), and it is cheap to find again.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "cache/store.h"
#include "driver/compile/compile_request.h"

namespace optiml::compile {

// SHA-256 of a request's compile inputs. `headers_digest` stands for the contents of the local
// headers the source includes (the caller scans them once per kernel; see kernel_key.h).
std::string image_key(const CompileRequest& request, const std::string& headers_digest);

class ImageCache {
  public:
    explicit ImageCache(std::filesystem::path root);  // e.g. <cache root>/images

    // nullopt when absent or damaged (a damaged image is compiled again, never used).
    std::optional<CompileResult> find(const std::string& key) const;
    // Best effort: a full disk or a read-only cache only costs the next compile.
    void store(const std::string& key, const CompileResult& result,
               Backend backend = Backend::Nvrtc);
    // The image of `key` when kept, else `request` compiled (and kept when it succeeded).
    // `cached`, when given, says which.
    CompileResult find_or_compile(const std::string& key, const CompileRequest& request,
                                  bool* cached = nullptr);

  private:
    cache::Store store_;
};

// The images folder of a cache root.
std::filesystem::path image_cache_dir(const std::filesystem::path& cache_root);

}  // namespace optiml::compile
