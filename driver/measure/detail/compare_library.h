// A project's comparison function (runtime/include/optiml/compare.h), compiled into a shared
// object by the driver and loaded here with dlopen: the worker calls it instead of the
// element-wise comparison. Host code only, so it is tested without a GPU.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "driver/measure/compare.h"
#include "driver/measure/detail/shared_library.h"
#include "driver/measure/protocol.h"

namespace optiml::measure {

class CompareLibrary {
  public:
    // Throws std::runtime_error naming `library` and `source_name` (the spec's path of the
    // source) when it cannot be loaded or does not define optiml_compare.
    CompareLibrary(const std::string& library, std::string source_name);

    // nullopt when the function accepts `actual` for the output `output` (a pointer argument of
    // `arguments`); otherwise why not, in the function's words. Scalars are passed with the
    // values `arguments` holds.
    std::optional<std::string> compare(const BufferSpec& output, const void* expected,
                                       const void* actual, const std::vector<BufferSpec>& arguments,
                                       const Tolerance& tolerance) const;

    const std::string& source_name() const { return source_name_; }

  private:
    SharedLibrary library_;
    std::string source_name_;
};

// The verdict on one output of a variant: the project's function when there is one, else the
// element-wise comparison within `tolerance`. nullopt: it matches; otherwise the message of a
// "mismatch" (without the trial).
std::optional<std::string> compare_output(const BufferSpec& output, const void* actual,
                                          const void* expected,
                                          const std::vector<BufferSpec>& arguments,
                                          const Tolerance& tolerance,
                                          const CompareLibrary* library);

}  // namespace optiml::measure
