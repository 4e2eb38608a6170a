#include "driver/tune/nvrtc_includes.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <regex>

#include "driver/compile/include_scanner.h"
#include "driver/source/device_code.h"

namespace optiml::tune {
namespace {
namespace fs = std::filesystem;

constexpr int kAttempts = 8;  // headers left out at most

// Where a header the kernel's own text includes is found: the include folders in order (the
// original's own folder first).
std::optional<fs::path> resolve(const std::string& name, const std::vector<fs::path>& folders) {
    std::error_code error;
    for (const fs::path& folder : folders)
        if (fs::is_regular_file(folder / name, error))
            return fs::weakly_canonical(folder / name, error);
    return std::nullopt;
}

// Whether `header` is `target` or includes it, directly or not (compile::scan_includes follows
// the includes as the compiler resolves them).
bool leads_to(const fs::path& header, const fs::path& target,
              const std::vector<fs::path>& folders) {
    std::vector<compile::IncludeDir> dirs;
    for (const fs::path& folder : folders) dirs.push_back({folder});
    try {
        for (const compile::ScannedFile& file :
             compile::scan_includes(header, dirs, header.parent_path()))
            if (file.path == target) return true;
    } catch (const std::exception&) {  // a header that cannot be read leads nowhere
    }
    return false;
}

// The include of `text` to leave out after NVRTC's `log`: the header NVRTC could not open, where
// `text` includes it; the include that leads to the header NVRTC failed in (one it could not open
// or rejected: host declarations are not allowed in JIT mode). nullopt for another failure in
// `text` itself, or a header no include of `text` leads to.
std::optional<std::string> to_leave_out(const std::string& log,
                                        const compile::CompileRequest& request,
                                        const std::string& text) {
    static const std::regex first_error(R"re((.+)\(\d+\): (?:catastrophic )?error: (.*))re");
    static const std::regex cannot_open(R"re(cannot open source file "([^"]+)")re");
    std::smatch match;
    if (!std::regex_search(log, match, first_error)) return std::nullopt;
    const std::vector<std::string> includes = source::included_files(text);
    const std::string where = match[1].str();
    if (where == request.source_name) {
        const std::string message = match[2].str();
        std::smatch missing_match;
        if (!std::regex_search(message, missing_match, cannot_open)) return std::nullopt;
        const std::string missing = missing_match[1].str();
        if (std::find(includes.begin(), includes.end(), missing) == includes.end())
            return std::nullopt;
        return missing;
    }
    // A header of `text` itself, wherever NVRTC found it (the toolkit's folders too).
    for (const std::string& name : includes)
        if (where.ends_with("/" + name)) return name;
    const std::vector<fs::path>& folders = request.include_dirs;
    std::error_code error;
    const fs::path target = fs::weakly_canonical(where, error);
    for (const std::string& name : includes)
        if (const auto header = resolve(name, folders))
            if (leads_to(*header, target, folders)) return name;
    return std::nullopt;
}

}  // namespace

NvrtcDeviceText compile_for_nvrtc(const compile::CompileRequest& device_only) {
    compile::CompileRequest request = device_only;
    request.backend = compile::Backend::Nvrtc;
    request.whole_file_text.clear();
    request.nvrtc_text.clear();
    NvrtcDeviceText out;
    for (int attempt = 0; attempt <= kAttempts; ++attempt) {
        request.source_text = source::nvrtc_device_text(device_only.source_text, out.left_out);
        out.compiled = compile::compile(request);
        if (out.compiled.ok || attempt == kAttempts) break;
        const auto header = to_leave_out(out.compiled.log, request, request.source_text);
        if (!header) break;
        out.left_out.push_back(*header);
    }
    return out;
}

}  // namespace optiml::tune
