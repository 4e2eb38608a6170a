// `optiml capture --source <file.cu>... -- <program> [args...]`: runs the program with the first
// launch of each kernel captured (profile/app_capture.h), and for each hot kernel (or each one
// named with --kernel) defined in one of the sources writes a spec that tunes on what that launch
// used (captured_spec.h); with --snapshot also the inputs' data, as raw files with a JSON sidecar.
// The CLI wiring lives in driver/cli.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace optiml::init {

struct CaptureOptions {
    std::vector<std::string> program;            // argv, after `--`
    std::vector<std::filesystem::path> sources;  // where the kernels are defined
    std::vector<std::string> kernels;            // by name; empty: the hot kernels
    std::filesystem::path output_dir = ".";      // specs (and their data folders) go here
    bool snapshot = false;
    std::uint64_t snapshot_limit_bytes = std::uint64_t{1} << 30;  // per allocation
    bool force = false;                                           // overwrite existing specs
};

// Prints progress and what was written to `out`, warnings and errors ("optiml: error: ...") to
// `err`. Returns 0 when every chosen kernel got a spec, 1 when the program could not be captured
// or some kernel got none (each says why), 2 for wrong options (checked before the program runs).
int run_capture_command(const CaptureOptions& options, std::ostream& out,
                        std::ostream& err = std::cerr);

// The options' problem ("" when none): what run_capture_command() rejects with status 2.
std::string capture_options_problem(const CaptureOptions& options);

}  // namespace optiml::init
