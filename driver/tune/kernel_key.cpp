#include "driver/tune/kernel_key.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "driver/compile/nvcc_compiler.h"
#include "driver/compile/nvrtc_compiler.h"
#include "driver/llm/prompt.h"
#include "driver/tune/compiler_choice.h"
#include "driver/tune/transform_tuning.h"
#include "driver/tune/version.h"

namespace optiml::tune {
namespace {

void add_data_file(const spec::Fill& fill, KernelSources& sources) {
    if (fill.kind != spec::Fill::Kind::File) return;
    std::ifstream stream(fill.file.path, std::ios::binary);
    if (!stream.is_open())
        throw std::runtime_error("cannot read the data file " + fill.file.path.string());
    const std::string bytes{std::istreambuf_iterator<char>(stream),
                            std::istreambuf_iterator<char>()};
    sources.data_files.push_back(
        {fill.file.path, {fill.file.as_written, cache::sha256_hex(bytes)}});
}

}  // namespace

KernelSources scan_sources(const spec::Spec& spec) {
    std::vector<std::filesystem::path> dirs{spec.source.parent_path()};
    for (const auto& dir : spec.include_dirs) dirs.push_back(spec.file.parent_path() / dir);
    dirs.insert(dirs.end(), spec.target.project_include_dirs.begin(),
                spec.target.project_include_dirs.end());
    KernelSources sources{
        compile::scan_includes(spec.source, dirs, spec.file.parent_path()), {}, {}, {}};
    if (!spec.check.compare.empty())
        sources.compare_files = compile::scan_includes(
            spec.check.compare, {spec.check.compare.parent_path()}, spec.file.parent_path());
    for (const auto& generator : spec.generators)
        sources.generator_files.push_back(compile::scan_includes(
            generator.source.path, {generator.source.path.parent_path()}, spec.file.parent_path()));
    for (const auto& argument : spec.arguments)
        if (argument.is_pointer && argument.role != spec::Role::Output)
            add_data_file(argument.fill, sources);
    for (const auto& constant : spec.constants) add_data_file(constant.fill, sources);
    return sources;
}

cache::LlmKeyInputs llm_key_inputs(const llm::LlmConfig& config, const std::string& strategy) {
    if (!config.enabled() || !transformations_enabled({0, 0, strategy})) return {};
    return {true, config.model, llm::tuning_prompt_fingerprints()};
}

std::string headers_digest(const KernelSources& sources) {
    std::vector<cache::TaggedField> fields;
    for (std::size_t i = 1; i < sources.files.size(); ++i) {
        fields.emplace_back("path", sources.files[i].relative_path);
        fields.emplace_back("contents", sources.files[i].contents);
    }
    return cache::compute_tagged_key(fields);
}

cache::KeyInputs key_inputs(const spec::Spec& spec, const KernelSources& sources, int arch,
                            cache::LlmKeyInputs llm, compile::ImageCache* images) {
    cache::KeyInputs inputs;
    inputs.llm = std::move(llm);
    inputs.optiml_version = kVersion;
    inputs.normalized_spec = spec.normalized.dump();
    for (const auto& file : sources.files)
        inputs.sources.push_back({file.relative_path, file.contents});
    inputs.nvrtc_version = compile::nvrtc_version();
    // The options every variant is compiled with; the per-variant -D's are the parameters,
    // which the spec (hashed above) already lists.
    inputs.nvrtc_options = {"-lineinfo"};
    inputs.nvrtc_options.insert(inputs.nvrtc_options.end(), spec.nvrtc_options.begin(),
                                spec.nvrtc_options.end());
    inputs.arch = arch_name(arch);
    for (const auto& file : sources.compare_files)
        inputs.compare_sources.push_back({file.relative_path, file.contents});
    for (const auto& generator : sources.generator_files) {
        inputs.generator_sources.emplace_back();
        for (const auto& file : generator)
            inputs.generator_sources.back().push_back({file.relative_path, file.contents});
    }
    const ProbeImages probes{images, images ? headers_digest(sources) : std::string()};
    if (choose_compiler(spec, arch, probes).backend == compile::Backend::Nvcc) {
        inputs.compiler = "nvcc";
        inputs.compiler_version = compile::nvcc_version();
    }
    for (const auto& data : sources.data_files) inputs.data_files.push_back(data.digest);
    inputs.build_options = spec.target.key_options;
    return inputs;
}

nlohmann::json key_summary(const cache::KeyInputs& inputs) {
    nlohmann::json summary = {{"arch", inputs.arch},
                              {"nvrtc_version", inputs.nvrtc_version},
                              {"nvrtc_options", inputs.nvrtc_options},
                              {"optiml_version", inputs.optiml_version},
                              {"compiler", inputs.compiler.empty() ? "nvrtc" : inputs.compiler},
                              {"sources", nlohmann::json::array()}};
    for (const auto& source : inputs.sources)
        summary["sources"].push_back(
            {{"path", source.relative_path}, {"sha256", cache::sha256_hex(source.contents)}});
    if (!inputs.compiler_version.empty()) summary["compiler_version"] = inputs.compiler_version;
    for (const auto& source : inputs.compare_sources)
        summary["compare_sources"].push_back(
            {{"path", source.relative_path}, {"sha256", cache::sha256_hex(source.contents)}});
    for (const auto& generator : inputs.generator_sources)
        for (const auto& source : generator)
            summary["generator_sources"].push_back(
                {{"path", source.relative_path}, {"sha256", cache::sha256_hex(source.contents)}});
    for (const auto& data : inputs.data_files)
        summary["data_files"].push_back({{"path", data.relative_path}, {"sha256", data.sha256}});
    if (!inputs.build_options.empty()) summary["build_options"] = inputs.build_options;
    if (inputs.llm.takes_part)
        summary["llm"] = {{"model", inputs.llm.model}, {"prompts", inputs.llm.prompts}};
    return summary;
}

cache::Entry llm_entry_for_base_key(const cache::Entry& entry, const std::string& base_key,
                                    const nlohmann::json& base_summary) {
    cache::Entry out = entry;
    out.key = base_key;
    out.directory.clear();
    out.manifest.erase("signature");  // it signed the other key
    out.manifest["tuned_with_llm"] = {
        {"key", entry.key},
        {"llm", entry.manifest.value("key_inputs", nlohmann::json::object())
                    .value("llm", nlohmann::json())}};
    out.manifest["key_inputs"] = base_summary;
    return out;
}

std::string arch_name(int arch) {
    return "sm_" + std::to_string(arch);
}

}  // namespace optiml::tune
