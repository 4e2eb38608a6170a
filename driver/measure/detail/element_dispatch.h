// Calls `f` with a value of the C++ type that an ElementType names, so typed code is written
// once as a generic lambda: visit_element_type(type, [](auto tag) { using T = decltype(tag); }).
#pragma once

#include <cstdint>

#include "driver/spec/spec.h"

namespace optiml::measure {

template <typename F>
decltype(auto) visit_element_type(spec::ElementType type, F&& f) {
    using spec::ElementType;
    switch (type) {
        case ElementType::Int8:
            return f(std::int8_t{});
        case ElementType::Int16:
            return f(std::int16_t{});
        case ElementType::Int32:
            return f(std::int32_t{});
        case ElementType::Int64:
            return f(std::int64_t{});
        case ElementType::UInt8:
            return f(std::uint8_t{});
        case ElementType::UInt16:
            return f(std::uint16_t{});
        case ElementType::UInt32:
            return f(std::uint32_t{});
        case ElementType::UInt64:
            return f(std::uint64_t{});
        case ElementType::Float32:
            return f(float{});
        case ElementType::Float64:
            break;
    }
    return f(double{});
}

}  // namespace optiml::measure
