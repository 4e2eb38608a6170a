#include "driver/measure/compare_library.h"

#include <dlfcn.h>

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "runtime/include/optiml/compare.h"

namespace optiml::measure {
namespace {

optiml_element_type c_type(spec::ElementType type) {
    switch (type) {
        case spec::ElementType::Int8:
            return OPTIML_INT8;
        case spec::ElementType::Int16:
            return OPTIML_INT16;
        case spec::ElementType::Int32:
            return OPTIML_INT32;
        case spec::ElementType::Int64:
            return OPTIML_INT64;
        case spec::ElementType::UInt8:
            return OPTIML_UINT8;
        case spec::ElementType::UInt16:
            return OPTIML_UINT16;
        case spec::ElementType::UInt32:
            return OPTIML_UINT32;
        case spec::ElementType::UInt64:
            return OPTIML_UINT64;
        case spec::ElementType::Float32:
            return OPTIML_FLOAT32;
        case spec::ElementType::Float64:
            break;
    }
    return OPTIML_FLOAT64;
}

using CompareFunction = int (*)(const optiml_compare_args*);

}  // namespace

CompareLibrary::CompareLibrary(const std::string& library, std::string source_name)
    : source_name_(std::move(source_name)) {
    // RTLD_LOCAL: the project's symbols never replace the worker's own.
    handle_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char* why = dlerror();
        throw std::runtime_error("cannot load the comparison function of " + source_name_ + " (" +
                                 library + "): " + (why ? why : "unknown error"));
    }
    function_ = dlsym(handle_, "optiml_compare");
    if (!function_) {
        dlclose(handle_);
        throw std::runtime_error(
            source_name_ +
            " does not define optiml_compare; expected extern \"C\" int optiml_compare(const "
            "optiml_compare_args* args) (include <optiml/compare.h>, which declares it)");
    }
}

CompareLibrary::~CompareLibrary() {
    if (handle_) dlclose(handle_);
}

std::optional<std::string> CompareLibrary::compare(const BufferSpec& output, const void* expected,
                                                   const void* actual,
                                                   const std::vector<BufferSpec>& arguments,
                                                   const Tolerance& tolerance) const {
    std::vector<optiml_scalar> scalars;
    for (const BufferSpec& argument : arguments) {
        if (argument.is_pointer) continue;
        const bool integer = !spec::is_floating(argument.type);
        scalars.push_back({argument.name.c_str(), c_type(argument.type),
                           integer ? static_cast<std::int64_t>(std::llround(argument.value)) : 0,
                           argument.value});
    }
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
    // The only way from dlsym's object pointer to a function pointer (POSIX guarantees it works).
    CompareFunction function = nullptr;
    static_assert(sizeof(function) == sizeof(function_));
    std::memcpy(&function, &function_, sizeof(function));
    if (function(&args) == 0) return std::nullopt;
    message.back() = '\0';  // whatever the function wrote, the text ends inside the buffer
    message.resize(message.find('\0'));
    if (message.empty()) message = "the comparison function reported a difference";
    return output.name + ": " + message + " (" + source_name_ + ")";
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
