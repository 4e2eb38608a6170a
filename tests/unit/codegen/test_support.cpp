#include "tests/unit/codegen/test_support.h"

#include <sys/wait.h>
#include <unistd.h>
#include <array>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace optiml::codegen::test {

std::filesystem::path data_dir() {
    return OPTIML_CODEGEN_TEST_DATA;
}

spec::Spec load_fixture(const std::string& spec_file) {
    return spec::load_spec(data_dir() / spec_file);
}

Variant fake_variant(const std::string& arch, std::map<std::string, std::int64_t> parameters) {
    Variant variant;
    variant.arch = arch;
    variant.winner.parameters = std::move(parameters);
    variant.lowered_name = "_Z5saxpyifPKfPf";
    variant.cubin = std::string(
        "\x7f"
        "ELF\x00\x01\xfe",
        7);
    variant.ptx = ".version 9.0\n.target " + arch + "\n";
    variant.key = "c0ffee" + arch;
    variant.summary = "tuned on NVIDIA H200: 0.081 ms vs original 0.240 ms (2.96x)";
    return variant;
}

std::filesystem::path fresh_directory(const std::string& name) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("optiml_codegen_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

void write_file(const std::filesystem::path& path, const std::string& content) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << content;
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

CommandResult run_command(const std::string& command) {
    const std::string with_stderr = command + " 2>&1";
    FILE* pipe = ::popen(with_stderr.c_str(), "r");
    if (pipe == nullptr) return {-1, "popen failed for: " + command};
    std::string output;
    std::array<char, 4096> buffer{};
    while (const std::size_t got = std::fread(buffer.data(), 1, buffer.size(), pipe)) {
        output.append(buffer.data(), got);
    }
    const int status = ::pclose(pipe);
    const int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return {exit_code, "$ " + command + "\n" + output};
}

std::string quote(const std::filesystem::path& path) {
    std::string quoted = "'";
    for (const char c : path.string()) {
        if (c == '\'') {
            quoted += "'\\''";
        } else {
            quoted += c;
        }
    }
    return quoted + "'";
}

std::string runtime_library_arguments() {
    return quote(OPTIML_RUNTIME_LIBRARY) + OPTIML_RUNTIME_LINK_FLAGS;
}

Variant real_variant(const std::filesystem::path& source, const std::filesystem::path& dir,
                     const std::map<std::string, std::int64_t>& parameters) {
    std::string defines;
    for (const auto& [name, value] : parameters)
        defines += " -D" + name + "=" + std::to_string(value);
    const std::filesystem::path cubin = dir / "tuned.cubin";
    const std::filesystem::path ptx = dir / "tuned.ptx";
    for (const std::string& output :
         {"-cubin -arch=sm_90 -o " + quote(cubin), "-ptx -arch=compute_90 -o " + quote(ptx)}) {
        const CommandResult build = run_command(std::string(OPTIML_NVCC) + " -std=c++17 " + output +
                                                defines + " " + quote(source));
        if (build.exit_code != 0) throw std::runtime_error(build.output);
    }
    Variant variant;
    variant.arch = "sm_90";
    variant.winner.parameters = parameters;
    variant.cubin = read_file(cubin);
    variant.ptx = read_file(ptx);
    std::smatch entry;
    if (!std::regex_search(variant.ptx, entry, std::regex(R"(\.entry\s+([A-Za-z0-9_$]+))")))
        throw std::runtime_error("no .entry in the PTX of " + source.string());
    variant.lowered_name = entry[1].str();
    variant.key = "test";
    variant.summary = "compiled by the test with nvcc";
    return variant;
}

CommandResult build_program(const std::filesystem::path& dir, const std::string& name,
                            const std::string& main_file) {
    return run_command(std::string(OPTIML_NVCC) + " -arch=sm_90 -std=c++20 -I" +
                       quote(OPTIML_RUNTIME_INCLUDE) + " -I" + quote(dir / "include") + " " +
                       quote(dir / source_path(name)) + " " + quote(data_dir() / main_file) + " " +
                       runtime_library_arguments() + " -o " + quote(dir / "program"));
}

}  // namespace optiml::codegen::test
