#include "driver/tune/compare_build.h"

#include <fstream>

#include "driver/compile/host_compiler.h"
#include "driver/tune/compare_header.h"

namespace optiml::tune {
namespace fs = std::filesystem;

fs::path build_compare_library(const spec::Spec& spec, const std::string& compiler,
                               const fs::path& dir) {
    const std::string what = spec.check.compare.string() + ": the comparison function (check." +
                             "compare of " + spec.file.string() + ")";
    const fs::path include = dir / "include";
    std::error_code error;
    fs::create_directories(include / "optiml", error);
    {
        std::ofstream header(include / "optiml" / "compare.h", std::ios::binary | std::ios::trunc);
        header << kCompareHeaderText;
        if (!header)
            throw CompareBuildError(what + ": cannot write its header into " + dir.string());
    }
    const fs::path library = dir / "compare.so";
    const compile::HostCompileResult result =
        compile::compile_shared_object(compiler, spec.check.compare, {include}, library);
    if (!result.ok) {
        throw CompareBuildError(what + " does not compile with the host compiler (" +
                                result.command + "):\n" + result.log +
                                (result.log.ends_with('\n') ? "" : "\n") +
                                "Fix the source, or pass the right compiler with --host-compiler "
                                "(CMake passes CMAKE_CXX_COMPILER)");
    }
    return library;
}

}  // namespace optiml::tune
