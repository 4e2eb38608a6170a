// The user's own compile of a kernel: the nvcc command line CMake runs for the file (from the
// build's compile_commands.json), reduced to what shapes device code. Host-only options (-O3, -g,
// -Xcompiler, warnings forwarded to the host compiler) and the command's plumbing (-c, -o, -x cu,
// -MD/-MF) are left out; what is kept is compiled into every variant and hashed into the key.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace optiml::compile {

class BuildFlagsError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct BuildFlags {
    // Device-relevant options in nvcc's spelling, in the command's order: -D/-U, -std=, -G,
    // -lineinfo, --use_fast_math, --ftz=, --prec-div=, --fmad=, --maxrregcount=, -Xptxas=, ...
    std::vector<std::string> options;
    std::vector<std::filesystem::path> include_dirs;  // -I and -isystem, absolute, in order
    bool relocatable = false;                         // -rdc=true or -dc (separable compilation)
    std::vector<int> archs;            // of -arch, -gencode/--generate-code: 75, 80, 90, ...
    std::vector<std::string> ignored;  // options left out (host only or unknown), for the log
};

// The words of a command as a POSIX shell splits it (quotes, backslashes), as CMake writes the
// "command" of compile_commands.json.
std::vector<std::string> split_shell_words(const std::string& command);

// The compile command of `file` in a compile_commands.json (its "arguments", or its "command"
// split), with the entry's "directory"; nullopt when no entry names the file. Throws
// BuildFlagsError naming the database when it cannot be read or parsed.
struct CompileCommand {
    std::vector<std::string> words;
    std::filesystem::path directory;
};
std::optional<CompileCommand> find_compile_command(const std::filesystem::path& database,
                                                   const std::filesystem::path& file);

// The flags of an nvcc command (the words after a launcher such as ccache); relative paths are
// taken from `directory`. Throws BuildFlagsError when the command is not nvcc's, or an option
// that takes a value ends the command.
BuildFlags parse_nvcc_command(const CompileCommand& command);

// Whether NVRTC compiles `option` (as the build spells it) exactly as nvcc does: defines and the
// language standard. Anything else makes "compiler": "auto" choose nvcc.
bool nvrtc_reproduces(const std::string& option);

}  // namespace optiml::compile
