// Gzipped recordings (Kernel Tuner's caches are published as .json.gz, large recorded spaces are
// committed so): recognized by gzip's magic bytes, inflated with zlib.
#pragma once

#include <string>
#include <string_view>

namespace optiml::search::detail {

// Whether `bytes` start with gzip's magic bytes (1f 8b).
bool is_gzip(std::string_view bytes);

// The inflated contents of gzip data: every member, one after another, as gunzip writes them.
// Throws std::runtime_error saying what is wrong (zlib's reason, or where the data ends early).
std::string gunzip(std::string_view bytes);

}  // namespace optiml::search::detail
