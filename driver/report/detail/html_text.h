// Text into HTML (and SVG, which shares its escaping): the five characters that could start
// markup or end an attribute become entities, so kernel source and messages show as written.
#pragma once

#include <string>
#include <string_view>

namespace optiml::report {

std::string escape_html(std::string_view text);

// A manifest's text field as a report shows it: "?" where the entry does not record it.
std::string or_unknown(const std::string& text);

}  // namespace optiml::report
