#include "driver/identity/build_manifest.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace optiml::identity {
namespace fs = std::filesystem;
namespace {

nlohmann::json target_json(const spec::TargetFlags& target) {
    auto paths = [](const std::vector<fs::path>& list) {
        nlohmann::json json = nlohmann::json::array();
        for (const auto& path : list) json.push_back(path.string());
        return json;
    };
    return {{"options", target.options},
            {"include_dirs", paths(target.include_dirs)},
            {"project_include_dirs", paths(target.project_include_dirs)},
            {"outside_include_dirs", paths(target.outside_include_dirs)},
            {"relocatable", target.relocatable},
            {"key_options", target.key_options}};
}

spec::TargetFlags target_from(const nlohmann::json& json) {
    auto paths = [&](const char* name) {
        std::vector<fs::path> list;
        for (const auto& path : json.value(name, nlohmann::json::array()))
            list.emplace_back(path.get<std::string>());
        return list;
    };
    spec::TargetFlags target;
    target.options = json.value("options", std::vector<std::string>{});
    target.include_dirs = paths("include_dirs");
    target.project_include_dirs = paths("project_include_dirs");
    target.outside_include_dirs = paths("outside_include_dirs");
    target.relocatable = json.value("relocatable", false);
    target.key_options = json.value("key_options", std::vector<std::string>{});
    return target;
}

}  // namespace

fs::path declared_kernels_dir(const fs::path& build_dir) {
    return build_dir / "optiml-kernels";
}

void to_json(nlohmann::json& json, const DeclaredKernel& kernel) {
    json = {{"format", "optiml-build-kernel"},
            {"version", kBuildManifestVersion},
            {"spec", kernel.spec.string()},
            {"name", kernel.name},
            {"mode", kernel.mode},
            {"cache_dir", kernel.cache_dir.string()},
            {"seeds", nlohmann::json::array()},
            {"host_compiler", kernel.host_compiler},
            {"archs", nlohmann::json::array()}};
    for (const auto& seed : kernel.seeds) json["seeds"].push_back(seed.string());
    if (kernel.budget_evaluations) json["budget_evaluations"] = *kernel.budget_evaluations;
    if (kernel.budget_seconds) json["budget_seconds"] = *kernel.budget_seconds;
    if (kernel.strategy) json["strategy"] = *kernel.strategy;
    if (!kernel.llm_flags.empty()) json["llm_flags"] = kernel.llm_flags;
    json["target"] = target_json(kernel.target);
    for (const auto& arch : kernel.archs)
        json["archs"].push_back({{"arch", arch.arch},
                                 {"key", arch.key},
                                 {"result", arch.result},
                                 {"where", arch.where}});
}

void from_json(const nlohmann::json& json, DeclaredKernel& kernel) {
    kernel.spec = json.at("spec").get<std::string>();
    kernel.name = json.at("name").get<std::string>();
    kernel.mode = json.at("mode").get<std::string>();
    kernel.cache_dir = json.at("cache_dir").get<std::string>();
    kernel.seeds.clear();
    for (const auto& seed : json.at("seeds")) kernel.seeds.emplace_back(seed.get<std::string>());
    kernel.host_compiler = json.value("host_compiler", "c++");
    if (json.contains("budget_evaluations"))
        kernel.budget_evaluations = json["budget_evaluations"].get<int>();
    if (json.contains("budget_seconds"))
        kernel.budget_seconds = json["budget_seconds"].get<double>();
    if (json.contains("strategy")) kernel.strategy = json["strategy"].get<std::string>();
    kernel.llm_flags = json.value("llm_flags", nlohmann::json::object());
    // A manifest written before the build recorded them: the flags of a build without any.
    kernel.target = target_from(json.value("target", nlohmann::json::object()));
    kernel.archs.clear();
    for (const auto& arch : json.at("archs"))
        kernel.archs.push_back({arch.at("arch").get<std::string>(),
                                arch.at("key").get<std::string>(),
                                arch.at("result").get<std::string>(), arch.value("where", "")});
}

std::vector<DeclaredKernel> read_declared_kernels(const fs::path& build_dir) {
    const fs::path dir = declared_kernels_dir(build_dir);
    if (!fs::is_directory(dir))
        throw BuildManifestError(dir.string() +
                                 ": no such folder; expected the build manifest that `optiml "
                                 "build` writes. Fix: configure and build the project with this "
                                 "OptiML first (cmake --build " +
                                 build_dir.string() + ")");
    std::vector<DeclaredKernel> kernels;
    for (const auto& item : fs::directory_iterator(dir)) {
        if (item.path().extension() != ".json") continue;  // temporaries of a write in progress
        std::ifstream in(item.path());
        std::stringstream text;
        text << in.rdbuf();
        nlohmann::json json;
        try {
            json = nlohmann::json::parse(text.str());
            if (json.value("format", "") != "optiml-build-kernel")
                throw BuildManifestError(item.path().string() +
                                         ": format: expected \"optiml-build-kernel\"; remove the "
                                         "file or build again");
            DeclaredKernel kernel = json.get<DeclaredKernel>();
            for (std::size_t i = 0; i < kernel.archs.size(); ++i) {
                const std::string& arch = kernel.archs[i].arch;
                if (arch.size() < 4 || arch.rfind("sm_", 0) != 0 ||
                    arch.find_first_not_of("0123456789", 3) != std::string::npos)
                    throw BuildManifestError(
                        item.path().string() + ": archs[" + std::to_string(i) + "].arch: \"" +
                        arch + "\"; expected sm_<number> (build again to rewrite it)");
            }
            if (kernel.strategy && !spec::is_search_strategy(*kernel.strategy))
                throw BuildManifestError(item.path().string() + ": strategy: \"" +
                                         *kernel.strategy + "\"; expected one of " +
                                         spec::search_strategies_text() +
                                         " (build again to rewrite it)");
            kernels.push_back(std::move(kernel));
        } catch (const nlohmann::json::exception& e) {
            throw BuildManifestError(item.path().string() + ": " + e.what() +
                                     "; expected the fields of docs/ci.md (build again to rewrite "
                                     "it)");
        }
    }
    std::sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) {
        return std::tie(a.spec, a.name) < std::tie(b.spec, b.name);
    });
    return kernels;
}

}  // namespace optiml::identity

namespace optiml::identity {

DeclaredKernel declared_kernel(const fs::path& build_dir, const fs::path& spec_file) {
    const fs::path wanted = fs::weakly_canonical(fs::absolute(spec_file));
    std::string declared;
    for (DeclaredKernel& kernel : read_declared_kernels(build_dir)) {
        if (fs::weakly_canonical(kernel.spec) == wanted) return kernel;
        declared += (declared.empty() ? "" : ", ") + kernel.spec.string();
    }
    throw BuildManifestError(declared_kernels_dir(build_dir).string() + ": the build declared no " +
                             "kernel of " + wanted.string() +
                             " (it declared: " + (declared.empty() ? "none" : declared) +
                             "). Fix: pass the build folder of the target that uses this spec, "
                             "and build it once");
}

}  // namespace optiml::identity
