#include "driver/compile/host_compiler.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "driver/compile/read_file.h"

extern char** environ;

namespace optiml::compile {

HostCompileResult compile_shared_object(const std::string& compiler,
                                        const std::filesystem::path& source,
                                        const std::vector<std::filesystem::path>& include_dirs,
                                        const std::filesystem::path& output) {
    std::vector<std::string> arguments{compiler, "-O2", "-fPIC", "-shared"};
    for (const auto& dir : include_dirs) arguments.push_back("-I" + dir.string());
    arguments.insert(arguments.end(), {"-o", output.string(), source.string()});
    HostCompileResult result;
    for (const auto& argument : arguments)
        result.command += (result.command.empty() ? "" : " ") + argument;

    // The compiler's stdout and stderr go to a file beside the output: no pipe to drain.
    const std::string log_path = output.string() + ".log";
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
        posix_spawnp(&pid, compiler.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        result.log = "cannot run '" + compiler + "': " + std::strerror(spawned);
        return result;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.log = read_file(log_path);
    std::error_code ignored;
    std::filesystem::remove(log_path, ignored);
    result.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!result.ok && WIFEXITED(status) && WEXITSTATUS(status) == 127 && result.log.empty())
        result.log = "cannot run '" + compiler + "'";
    return result;
}

}  // namespace optiml::compile
