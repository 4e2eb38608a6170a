// Writes generated files only when their content changed (an unchanged launcher must not make
// the user's build recompile anything), atomically, so a concurrent build never reads half a file.
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>

#include "driver/base/atomic_write.h"
#include "driver/codegen/launcher.h"

namespace optiml::codegen {
namespace {

std::optional<std::string> read_if_exists(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
    throw std::runtime_error(path.string() + ": " + what + "; expected a writable build directory");
}

bool write_if_changed(const std::filesystem::path& path, const std::string& content) {
    if (read_if_exists(path) == content) return false;
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    if (error) fail(path.parent_path(), "cannot create the folder (" + error.message() + ")");
    // Two builds generating the same launcher each write a whole file.
    if (const std::string why = base::try_write_file_atomically(path, content); !why.empty())
        fail(path, "cannot replace the file (" + why + ")");
    return true;
}

}  // namespace

bool write_generated_files(const std::filesystem::path& dir, const std::string& name,
                           const GeneratedFiles& files) {
    const bool header_changed = write_if_changed(dir / header_path(name), files.header);
    const bool source_changed = write_if_changed(dir / source_path(name), files.source);
    return header_changed || source_changed;
}

}  // namespace optiml::codegen
