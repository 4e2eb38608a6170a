// The --strategy option of `optiml tune` and `optiml build`: a name of search::strategy_names(),
// checked as the command line is read. A wrong one is refused with the valid names, and a Kernel
// Tuner strategy's name with the OptiML strategy that does the same where there is one.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace optiml::cli {

// "" for a strategy's name, else what is wrong and what was expected:
// unknown search strategy "brute_force" (Kernel Tuner's name for exhaustive); expected one of ...
std::string strategy_name_error(const std::string& name);

CLI::Validator strategy_name();

}  // namespace optiml::cli
