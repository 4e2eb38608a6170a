#include "driver/measure/detail/compare_library.h"

#include "driver/measure/detail/c_abi.h"

namespace optiml::measure {
namespace {

using CompareFunction = int (*)(const optiml_compare_args*);

}  // namespace

CompareLibrary::CompareLibrary(const std::string& library, std::string source_name)
    : library_(library, "optiml_compare", "the comparison function of " + source_name,
               "extern \"C\" int optiml_compare(const optiml_compare_args* args) (include "
               "<optiml/compare.h>, which declares it)"),
      source_name_(std::move(source_name)) {}

std::optional<std::string> CompareLibrary::compare(const BufferSpec& output, const void* expected,
                                                   const void* actual,
                                                   const std::vector<BufferSpec>& arguments,
                                                   const Tolerance& tolerance) const {
    const std::vector<optiml_scalar> scalars = c_scalars(arguments);
    std::string message(1024, '\0');
    const optiml_compare_args args{OPTIML_COMPARE_ABI_VERSION,
                                   output.name.c_str(),
                                   c_type(output.type),
                                   output.count,
                                   expected,
                                   actual,
                                   scalars.data(),
                                   scalars.size(),
                                   tolerance.rtol,
                                   tolerance.atol,
                                   message.data(),
                                   message.size()};
    if (library_.function<CompareFunction>()(&args) == 0) return std::nullopt;
    return output.name + ": " +
           message_text(std::move(message), "the comparison function reported a difference") +
           " (" + source_name_ + ")";
}

std::optional<std::string> compare_output(const BufferSpec& output, const void* actual,
                                          const void* expected,
                                          const std::vector<BufferSpec>& arguments,
                                          const Tolerance& tolerance,
                                          const CompareLibrary* library) {
    if (library) return library->compare(output, expected, actual, arguments, tolerance);
    const Comparison c = compare_buffers(output.type, actual, expected, output.count, tolerance);
    if (c.mismatches == 0) return std::nullopt;
    return describe(output.name, c, output.count, tolerance);
}

}  // namespace optiml::measure
