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

}  // namespace optiml::codegen::test
