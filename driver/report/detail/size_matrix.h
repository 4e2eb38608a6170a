// The generalisation matrix of a tuning across problem sizes (the manifest's "sizes",
// tune/size_tuning.h) as text: a heat map of every variant's time at every problem as a fraction
// of that problem's best, the cells within the dispatch tolerance marked, the dispatch chosen and
// what the one shipped variant loses. `optiml explain` prints it, `optiml report` draws it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace optiml::report {

// "" for null. Throws std::runtime_error naming the field when `sizes` is malformed.
std::string size_matrix_text(const nlohmann::json& sizes);
// The same as an HTML table, each cell coloured from green (the problem's best) to red (twice its
// time or more), and the dispatch and shipped lines as paragraphs; `optiml report` shows it.
std::string size_matrix_html(const nlohmann::json& sizes);

}  // namespace optiml::report
