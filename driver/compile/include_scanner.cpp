#include "driver/compile/include_scanner.h"

#include "driver/base/read_file.h"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>

namespace optiml::compile {
namespace fs = std::filesystem;
namespace {

struct IncludeLine {
    std::string name;
    bool quoted = false;
};

std::vector<IncludeLine> includes_of(const std::string& text) {
    static const std::regex include_line(R"(^[ \t]*#[ \t]*include[ \t]*(\"([^\"]+)\"|<([^>]+)>))",
                                         std::regex::multiline);
    std::vector<IncludeLine> lines;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), include_line);
         it != std::sregex_iterator(); ++it) {
        const bool quoted = (*it)[2].matched;
        lines.push_back({quoted ? (*it)[2].str() : (*it)[3].str(), quoted});
    }
    return lines;
}

struct Found {
    fs::path path;
    const IncludeDir* dir = nullptr;  // null: next to the including file
};

std::optional<Found> resolve(const IncludeLine& line, const fs::path& including_dir,
                             const std::vector<IncludeDir>& include_dirs) {
    if (line.quoted)
        if (auto here = including_dir / line.name; fs::is_regular_file(here)) return Found{here};
    for (const auto& dir : include_dirs)
        if (auto there = dir.path / line.name; fs::is_regular_file(there))
            return Found{there, &dir};
    return std::nullopt;
}

std::string relative_to(const fs::path& path, const fs::path& base) {
    return path.lexically_relative(base).generic_string();
}

}  // namespace

std::vector<ScannedFile> scan_includes(const fs::path& source,
                                       const std::vector<IncludeDir>& include_dirs,
                                       const fs::path& base_as_given) {
    // Files and base alike with symbolic links resolved: a checkout reached through a link (a
    // linked home folder, a CI workspace) gives the same relative paths, hence the same key.
    const fs::path base = fs::weakly_canonical(base_as_given);
    const fs::path root = fs::weakly_canonical(source);
    std::set<fs::path> seen{root};
    // The source first; each file found is scanned in turn (`next`), and keeps the name it has in
    // the key's terms: a header of a folder outside the project passes its "<include>/..." prefix
    // on to the headers it includes from beside it.
    std::vector<ScannedFile> files{{root, relative_to(root, base), base::read_file(root), {}}};
    std::vector<std::string> outside_names{""};  // per file; "" inside the project
    for (std::size_t next = 0; next < files.size(); ++next) {
        const fs::path including_dir = files[next].path.parent_path();
        const std::string text = files[next].contents;  // `files` grows below
        const std::string outside_of_next = outside_names[next];
        for (const auto& line : includes_of(text)) {
            const auto found = resolve(line, including_dir, include_dirs);
            if (!found || (found->dir && !found->dir->scanned)) {
                files[next].unscanned_includes.push_back(line.name);
                continue;
            }
            fs::path header = fs::weakly_canonical(found->path);
            if (!seen.insert(header).second) continue;
            std::string outside_name;
            if (found->dir && !found->dir->in_project)
                outside_name =
                    "<include>/" + fs::path(line.name).lexically_normal().generic_string();
            else if (!found->dir && !outside_of_next.empty())
                outside_name = (fs::path(outside_of_next).parent_path() / line.name)
                                   .lexically_normal()
                                   .generic_string();
            files.push_back({header,
                             outside_name.empty() ? relative_to(header, base) : outside_name,
                             base::read_file(header),
                             {}});
            outside_names.push_back(std::move(outside_name));
        }
    }
    std::sort(files.begin() + 1, files.end(),
              [](const auto& a, const auto& b) { return a.relative_path < b.relative_path; });
    return files;
}

}  // namespace optiml::compile
