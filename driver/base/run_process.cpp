#include "driver/base/run_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "driver/base/read_file.h"

extern char** environ;

namespace optiml::base {

ProcessResult run_process(std::vector<std::string> arguments,
                          const std::filesystem::path& log_path) {
    ProcessResult result;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int spawned =
        posix_spawnp(&pid, arguments.at(0).c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        result.log = "cannot run '" + arguments[0] + "': " + std::strerror(spawned);
        return result;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.log = read_file(log_path);
    std::error_code ignored;
    std::filesystem::remove(log_path, ignored);
    result.started = true;
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    // posix_spawnp reports a missing program through the child, as exit status 127.
    if (result.exit_code == 127 && result.log.empty()) {
        result.started = false;
        result.log = "cannot run '" + arguments[0] + "'";
    }
    return result;
}

std::string command_line(const std::vector<std::string>& arguments) {
    std::string line;
    for (const auto& argument : arguments) line += (line.empty() ? "" : " ") + argument;
    return line;
}

}  // namespace optiml::base
