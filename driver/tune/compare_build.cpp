#include "driver/tune/compare_build.h"

#include <fstream>

#include "driver/base/scratch_dir.h"
#include "driver/compile/host_compiler.h"
#include "driver/tune/compare_header.h"

namespace optiml::tune {
namespace fs = std::filesystem;
namespace {

void write_header(const fs::path& path, const char* text, const std::string& what,
                  const fs::path& dir) {
    std::ofstream header(path, std::ios::binary | std::ios::trunc);
    header << text;
    if (!header) throw CompareBuildError(what + ": cannot write its headers into " + dir.string());
}

// `source` compiled into `dir`/`library_name` against OptiML's headers; `what` names the source
// and its spec field in messages.
fs::path build_host_library(const fs::path& source, const std::string& what,
                            const std::string& compiler, const fs::path& dir,
                            const std::string& library_name) {
    const fs::path include = dir / "include";
    std::error_code error;
    fs::create_directories(include / "optiml", error);
    write_header(include / "optiml" / "compare.h", kCompareHeaderText, what, dir);
    write_header(include / "optiml" / "generate.h", kGenerateHeaderText, what, dir);
    const fs::path library = dir / library_name;
    const compile::HostCompileResult result =
        compile::compile_shared_object(compiler, source, {include}, library);
    if (!result.ok) {
        throw CompareBuildError(what + " does not compile with the host compiler (" +
                                result.command + "):\n" + result.log +
                                (result.log.ends_with('\n') ? "" : "\n") +
                                "Fix the source, or pass the right compiler with --host-compiler "
                                "(CMake passes CMAKE_CXX_COMPILER)");
    }
    return library;
}

}  // namespace

fs::path build_compare_library(const spec::Spec& spec, const std::string& compiler,
                               const fs::path& dir) {
    return build_host_library(spec.check.compare,
                              spec.check.compare.string() +
                                  ": the comparison function (check.compare of " +
                                  spec.file.string() + ")",
                              compiler, dir, "compare.so");
}

fs::path build_generator_library(const spec::Spec& spec, std::size_t index,
                                 const std::string& compiler, const fs::path& dir) {
    const spec::Generator& generator = spec.generators.at(index);
    return build_host_library(generator.source.path,
                              generator.source.path.string() +
                                  ": the input generator (the \"generator\" fill of " +
                                  generator.fills.front() + " in " + spec.file.string() + ")",
                              compiler, dir, "generator" + std::to_string(index) + ".so");
}

void build_host_functions(const spec::Spec& spec, const std::string& compiler, const fs::path& dir,
                          measure::Problem& problem) {
    if (!spec.check.compare.empty())
        problem.compare_library = build_compare_library(spec, compiler, dir).string();
    for (std::size_t i = 0; i < spec.generators.size(); ++i)
        problem.generators.at(i).library = build_generator_library(spec, i, compiler, dir).string();
}

std::optional<std::string> host_functions_problem(const spec::Spec& spec,
                                                  const std::string& compiler) {
    if (spec.check.compare.empty() && spec.generators.empty()) return std::nullopt;
    const base::ScratchDir scratch;
    if (scratch.path().empty()) return std::nullopt;  // nothing to say about the sources
    measure::Problem unused;
    unused.generators.resize(spec.generators.size());
    try {
        build_host_functions(spec, compiler, scratch.path(), unused);
    } catch (const CompareBuildError& e) {
        return e.what();
    }
    return std::nullopt;
}

}  // namespace optiml::tune
