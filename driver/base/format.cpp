#include "driver/base/format.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace optiml::base::format {

std::string number(double value) {
    if (!std::isfinite(value)) return value > 0 ? "inf" : (value < 0 ? "-inf" : "nan");
    std::array<char, 32> text{};
    std::snprintf(text.data(), text.size(), "%.3g", value);
    return text.data();
}

std::string percent(double fraction) {
    if (!std::isfinite(fraction)) return number(fraction);
    std::array<char, 32> text{};
    std::snprintf(text.data(), text.size(), "%.1f%%", fraction * 100.0);
    return text.data();
}

std::string seconds(double s) {
    const double magnitude = std::fabs(s);
    if (magnitude == 0.0 || !std::isfinite(s)) return number(s) + " s";
    if (magnitude < 1e-6) return number(s * 1e9) + " ns";
    if (magnitude < 1e-3) return number(s * 1e6) + " µs";
    if (magnitude < 1.0) return number(s * 1e3) + " ms";
    return number(s) + " s";
}

std::string si(double value, const char* unit) {
    struct Prefix {
        double scale;
        const char* name;
    };
    static constexpr std::array<Prefix, 5> prefixes{
        {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}}};
    for (const Prefix& prefix : prefixes) {
        if (std::fabs(value) >= prefix.scale) {
            return number(value / prefix.scale) + " " + prefix.name + unit;
        }
    }
    return number(value) + " " + unit;
}

std::string count(std::uint64_t value) {
    std::string digits = std::to_string(value);
    std::string grouped;
    const std::size_t first = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
    grouped += digits.substr(0, first);
    for (std::size_t i = first; i < digits.size(); i += 3) grouped += "," + digits.substr(i, 3);
    return grouped;
}

std::string precise(double value) {
    std::array<char, 32> text{};
    std::snprintf(text.data(), text.size(), "%.4g", value);
    return text.data();
}

std::string milliseconds(double ms) {
    return precise(ms) + " ms";
}

}  // namespace optiml::base::format
