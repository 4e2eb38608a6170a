// Builds a spec's comparison function (check.compare) into a shared object for the worker:
// the host C++ compiler compiles the project's source against <optiml/compare.h>.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include "driver/spec/spec.h"

namespace optiml::tune {

// A comparison function that does not compile: the message names the source, the spec field
// and the compiler's output.
class CompareBuildError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Compiles the spec's check.compare with `compiler` into `dir`/compare.so (the header goes to
// `dir`/include/optiml/compare.h) and returns the library's path. Throws CompareBuildError.
std::filesystem::path build_compare_library(const spec::Spec& spec, const std::string& compiler,
                                            const std::filesystem::path& dir);

}  // namespace optiml::tune
