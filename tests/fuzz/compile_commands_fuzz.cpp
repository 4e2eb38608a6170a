// The build's compile_commands.json as `optiml build --compile-commands` reads it
// (identity::read_user_build: the entry of the kernel's file, else of the generated launcher,
// found by compile::find_compile_command; its nvcc command parsed by compile::parse_nvcc_command;
// the flags sorted into the key's and the include folders). A bad database or command must be one
// compile::BuildFlagsError that names the database; anything else is a finding.
// Seeds: databases CMake wrote for examples/saxpy and for a small project of a CUDA library and a
// C++ program (nvcc and g++ entries), and one in the "arguments" form; their folders renamed to
// /src (the source tree) and /build (the build tree), which the target passes as the roots.
#include "driver/identity/target_flags.h"
#include "driver/spec/spec.h"
#include "fuzz_support.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace optiml;
    const auto database =
        fuzz::write_input("build/compile_commands.json", fuzz::as_text(data, size));
    static const spec::Spec kernel = [] {
        spec::Spec spec;
        spec.source = "/src/kernels/saxpy.cu";
        return spec;
    }();
    const std::filesystem::path launcher = "/build/optiml/saxpy/optiml_saxpy.cu";
    const identity::UserBuildPaths paths{database, "/src", "/build", "/build/optiml/saxpy/include"};
    try {
        const identity::UserBuild build = identity::read_user_build(paths, kernel, launcher);
        if (build.entry != kernel.source.string() && build.entry != launcher.string())
            fuzz::finding("the flags of an entry that is neither file asked for: " + build.entry);
        for (const int arch : build.archs)
            if (arch <= 0) fuzz::finding("an architecture number " + std::to_string(arch));
    } catch (const compile::BuildFlagsError& error) {
        if (std::string(error.what()).find(database.string()) == std::string::npos)
            fuzz::finding(std::string("a compile database error that does not name the file: ") +
                          error.what());
    }
    return 0;
}
