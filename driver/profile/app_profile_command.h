// `optiml profile -- <program> [args...]`: runs the program with every kernel launch recorded,
// prints the kernels by share of GPU time with the hot ones marked, and the
// optiml_optimize_kernel() line to add for each hot kernel. The CLI wiring lives in driver/cli.
#pragma once

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace optiml::profile {

// Prints the report (Markdown) to `out`, and warnings ("optiml: warning: ...") and errors
// ("optiml: error: ...") to `err`. Writes the JSON form (app_profile_json.h) to `json_out` unless
// it is empty. The suggested lines name the program's file name as its CMake target.
// Returns 0 on success, 1 when the program could not be profiled (the message says why and what
// to do), 2 when `program_argv` is empty.
int run_profile_app_command(const std::vector<std::string>& program_argv,
                            const std::filesystem::path& json_out, std::ostream& out,
                            std::ostream& err = std::cerr);

}  // namespace optiml::profile
