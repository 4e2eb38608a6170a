// Text into HTML (and SVG, which shares its escaping): the five characters that could start
// markup or end an attribute become entities, so kernel source and messages show as written.
#pragma once

#include <string>
#include <string_view>

namespace optiml::report {

std::string escape_html(std::string_view text);

}  // namespace optiml::report
