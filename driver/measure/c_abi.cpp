#include "driver/measure/detail/c_abi.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace optiml::measure {

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

std::vector<optiml_scalar> c_scalars(const std::vector<BufferSpec>& arguments) {
    std::vector<optiml_scalar> scalars;
    for (const BufferSpec& argument : arguments) {
        if (argument.is_pointer) continue;
        const bool integer = !spec::is_floating(argument.type);
        scalars.push_back({argument.name.c_str(), c_type(argument.type),
                           integer ? static_cast<std::int64_t>(std::llround(argument.value)) : 0,
                           argument.value});
    }
    return scalars;
}

std::string message_text(std::string buffer, const std::string& fallback) {
    buffer.resize(std::min(buffer.find('\0'), buffer.size()));
    return buffer.empty() ? fallback : buffer;
}

}  // namespace optiml::measure
