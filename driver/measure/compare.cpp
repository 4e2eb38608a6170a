#include "driver/measure/compare.h"

#include "driver/measure/detail/element_dispatch.h"

#include <cmath>
#include <cstdint>
#include <sstream>

namespace optiml::measure {
namespace {

template <typename T>
Comparison compare_typed(const T* got, const T* expected, std::size_t count,
                         const Tolerance& tolerance) {
    Comparison result;
    for (std::size_t i = 0; i < count; ++i) {
        bool ok;
        if constexpr (std::is_floating_point_v<T>) {
            const double g = got[i];
            const double e = expected[i];
            ok = !std::isnan(g) && std::abs(g - e) <= tolerance.atol + tolerance.rtol * std::abs(e);
        } else {
            ok = got[i] == expected[i];
        }
        if (!ok && result.mismatches++ == 0) {
            result.first_index = i;
            result.first_got = static_cast<double>(got[i]);
            result.first_expected = static_cast<double>(expected[i]);
        }
    }
    return result;
}

}  // namespace

Comparison compare_buffers(spec::ElementType type, const void* got, const void* expected,
                           std::size_t count, const Tolerance& tolerance) {
    return visit_element_type(type, [&](auto tag) {
        using T = decltype(tag);
        return compare_typed(static_cast<const T*>(got), static_cast<const T*>(expected), count,
                             tolerance);
    });
}

std::string describe(const std::string& name, const Comparison& comparison, std::size_t count,
                     const Tolerance& tolerance) {
    std::ostringstream out;
    out << name << "[" << comparison.first_index << "]: got " << comparison.first_got
        << ", expected " << comparison.first_expected << " (rtol " << tolerance.rtol << ", atol "
        << tolerance.atol << "); " << comparison.mismatches << " of " << count
        << " elements differ";
    return out.str();
}

}  // namespace optiml::measure
