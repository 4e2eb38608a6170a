// Builds a spec's host C++ functions into shared objects for the worker: its comparison function
// (check.compare) and its input generators ("generator" fills). The host C++ compiler compiles
// each project source against <optiml/compare.h> and <optiml/generate.h>.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "driver/measure/protocol.h"
#include "driver/spec/spec.h"

namespace optiml::tune {

// A function that does not compile: the message names the source, the spec field and the
// compiler's output.
class CompareBuildError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Compiles the spec's check.compare with `compiler` into `dir`/compare.so (the headers go to
// `dir`/include/optiml/) and returns the library's path. Throws CompareBuildError.
std::filesystem::path build_compare_library(const spec::Spec& spec, const std::string& compiler,
                                            const std::filesystem::path& dir);

// Compiles generator `index` of spec.generators into `dir`/generator<index>.so. Throws
// CompareBuildError.
std::filesystem::path build_generator_library(const spec::Spec& spec, std::size_t index,
                                              const std::string& compiler,
                                              const std::filesystem::path& dir);

// Every host function the spec names, built into `dir` and set in `problem` (the comparison
// library, each generator's library). Throws CompareBuildError.
void build_host_functions(const spec::Spec& spec, const std::string& compiler,
                          const std::filesystem::path& dir, measure::Problem& problem);

// Whether every host function the spec names compiles, built in a scratch folder removed after:
// nullopt, or the first CompareBuildError's message. A build that does not tune calls it, so a
// generator that does not compile shows where it was written, not first on a GPU machine.
std::optional<std::string> host_functions_problem(const spec::Spec& spec,
                                                  const std::string& compiler);

}  // namespace optiml::tune
