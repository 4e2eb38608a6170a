#include "driver/base/run_process.h"

#include <cstring>

#include "driver/base/read_file.h"
#include "driver/base/subprocess.h"

namespace optiml::base {

ProcessResult run_process(std::vector<std::string> arguments,
                          const std::filesystem::path& log_path) {
    ProcessResult result;
    SpawnOptions options;
    options.arguments = std::move(arguments);
    options.output = SpawnOptions::Stream::LogFile;
    options.errors = SpawnOptions::Stream::LogFile;
    options.log_file = log_path;
    const std::string& program = options.arguments.at(0);
    Subprocess process;
    if (const std::optional<SpawnFailure> failure = process.start(options)) {
        result.log = "cannot run '" + program + "': " + std::strerror(failure->error);
        return result;
    }
    const ExitStatus status = process.wait();
    result.log = read_file(log_path);
    std::error_code ignored;
    std::filesystem::remove(log_path, ignored);
    result.started = true;
    if (status.wait_error == 0 && !status.signaled) result.exit_code = status.code;
    // Exit status 127 with nothing in the log: the program was not found (the status a shell, or
    // the child itself after a failed exec, gives).
    if (result.exit_code == 127 && result.log.empty()) {
        result.started = false;
        result.log = "cannot run '" + program + "'";
    }
    return result;
}

std::string command_line(const std::vector<std::string>& arguments) {
    std::string line;
    for (const auto& argument : arguments) line += (line.empty() ? "" : " ") + argument;
    return line;
}

}  // namespace optiml::base
