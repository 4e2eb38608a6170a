// Text into HTML (and SVG, which shares its escaping): the five characters that could start
// markup or end an attribute become entities, so kernel source and messages show as written.
#pragma once

#include <string>
#include <string_view>

namespace optiml::report {

std::string escape_html(std::string_view text);

// "%.3g" with SI prefixes for axis ticks and tables: 1.5e12 -> "1.5 T", 0.004 -> "4 m".
std::string si_number(double value);

}  // namespace optiml::report
