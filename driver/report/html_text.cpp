#include "driver/report/html_text.h"

#include <cmath>
#include <cstdio>

namespace optiml::report {

std::string escape_html(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string si_number(double value) {
    static const struct {
        double scale;
        const char* prefix;
    } prefixes[] = {{1e15, " P"}, {1e12, " T"}, {1e9, " G"},  {1e6, " M"}, {1e3, " k"},
                    {1.0, ""},    {1e-3, " m"}, {1e-6, " µ"}, {1e-9, " n"}};
    const double magnitude = std::abs(value);
    char text[32];
    for (const auto& p : prefixes)
        if (magnitude >= p.scale) {
            std::snprintf(text, sizeof(text), "%.3g%s", value / p.scale, p.prefix);
            return text;
        }
    std::snprintf(text, sizeof(text), "%.3g", value);
    return text;
}

}  // namespace optiml::report
