// Number formatting shared by the explanation sentences, the Markdown reports and the logs.
// Three significant digits and an SI prefix: enough to read, never pretending more precision.
#pragma once

#include <cstdint>
#include <string>

namespace optiml::base::format {

std::string number(double value);                // "0.167", "13.9", "1.23e+04"
std::string percent(double fraction);            // 0.905 -> "90.5%"
std::string seconds(double s);                   // "1.23 µs", "4.5 ms", "2 s"
std::string si(double value, const char* unit);  // si(4.8e12, "B/s") -> "4.8 TB/s"
std::string count(std::uint64_t value);          // 12345 -> "12,345"
// Four significant digits, for times and scores compared side by side (explain, replay, the
// tuning log, prompts): "0.1667", "1.234e+04".
std::string precise(double value);
std::string milliseconds(double ms);  // precise(ms) + " ms": "0.1235 ms"

}  // namespace optiml::base::format
