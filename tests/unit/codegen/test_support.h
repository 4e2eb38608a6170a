// Shared by the codegen tests: fixture specs, fake and real variants, running tools.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "driver/codegen/launcher.h"
#include "driver/spec/spec.h"

namespace optiml::codegen::test {

std::filesystem::path data_dir();
spec::Spec load_fixture(const std::string& spec_file);

// A variant with tiny fake images: loading them fails, which the runtime must survive.
Variant fake_variant(const std::string& arch, std::map<std::string, std::int64_t> parameters);

// Compiles `source` with nvcc as the tuner would for one configuration (-D per parameter): CUBIN
// for sm_90 and PTX of the same source in `dir`, and the kernel's lowered name read from the PTX.
// Throws std::runtime_error with nvcc's output when it fails.
Variant real_variant(const std::filesystem::path& source, const std::filesystem::path& dir,
                     const std::map<std::string, std::int64_t>& parameters);

// A fresh, empty folder under the temporary directory, unique to this process and `name`.
std::filesystem::path fresh_directory(const std::string& name);

std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& content);

struct CommandResult {
    int exit_code;
    std::string output;  // stdout and stderr together
};
CommandResult run_command(const std::string& command);
std::string quote(const std::filesystem::path& path);

// The runtime library as nvcc's command line names it for a program that links it: its path, and
// in a sanitized build (OPTIML_SANITIZE) the sanitizers its code needs, for the program's own
// files too.
std::string runtime_library_arguments();

// Links the generated `name` launcher in `dir` with `main_file` (of data_dir()) into
// `dir`/program; in C++20, where OPTIML_CONSTINIT makes the compiler prove the tables
// constant-initialized.
CommandResult build_program(const std::filesystem::path& dir, const std::string& name,
                            const std::string& main_file);

}  // namespace optiml::codegen::test
