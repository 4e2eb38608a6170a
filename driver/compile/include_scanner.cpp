#include "driver/compile/include_scanner.h"

#include "driver/compile/read_file.h"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>

namespace optiml::compile {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> quoted_includes(const std::string& text) {
    static const std::regex include_line(R"(^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\")",
                                         std::regex::multiline);
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), include_line);
         it != std::sregex_iterator(); ++it)
        names.push_back((*it)[1].str());
    return names;
}

std::optional<fs::path> resolve(const std::string& name, const fs::path& including_dir,
                                const std::vector<fs::path>& include_dirs) {
    if (auto here = including_dir / name; fs::is_regular_file(here)) return here;
    for (const auto& dir : include_dirs)
        if (auto there = dir / name; fs::is_regular_file(there)) return there;
    return std::nullopt;
}

std::string relative_to(const fs::path& path, const fs::path& base) {
    return path.lexically_relative(base).generic_string();
}

}  // namespace

std::vector<ScannedFile> scan_includes(const fs::path& source,
                                       const std::vector<fs::path>& include_dirs,
                                       const fs::path& base_as_given) {
    // Files and base alike with symbolic links resolved: a checkout reached through a link (a
    // linked home folder, a CI workspace) gives the same relative paths, hence the same key.
    const fs::path base = fs::weakly_canonical(base_as_given);
    const fs::path root = fs::weakly_canonical(source);
    std::vector<ScannedFile> headers;
    std::set<fs::path> seen{root};
    std::vector<fs::path> pending{root};
    ScannedFile first{root, relative_to(root, base), read_file(root)};

    while (!pending.empty()) {
        const fs::path current = pending.back();
        pending.pop_back();
        const std::string text = current == root ? first.contents : read_file(current);
        for (const auto& name : quoted_includes(text)) {
            auto found = resolve(name, current.parent_path(), include_dirs);
            if (!found) continue;
            fs::path header = fs::weakly_canonical(*found);
            if (!seen.insert(header).second) continue;
            pending.push_back(header);
            headers.push_back({header, relative_to(header, base), read_file(header)});
        }
    }
    std::sort(headers.begin(), headers.end(),
              [](const auto& a, const auto& b) { return a.relative_path < b.relative_path; });
    headers.insert(headers.begin(), std::move(first));
    return headers;
}

}  // namespace optiml::compile
