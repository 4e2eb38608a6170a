#include "driver/compile/host_compiler.h"

#include "driver/base/run_process.h"

namespace optiml::compile {

HostCompileResult compile_shared_object(const std::string& compiler,
                                        const std::filesystem::path& source,
                                        const std::vector<std::filesystem::path>& include_dirs,
                                        const std::filesystem::path& output) {
    std::vector<std::string> arguments{compiler, "-O2", "-fPIC", "-shared"};
    for (const auto& dir : include_dirs) arguments.push_back("-I" + dir.string());
    arguments.insert(arguments.end(), {"-o", output.string(), source.string()});
    HostCompileResult result;
    result.command = base::command_line(arguments);
    const base::ProcessResult run = base::run_process(arguments, output.string() + ".log");
    result.ok = run.ok();
    result.log = run.log;
    return result;
}

}  // namespace optiml::compile
