#include "driver/identity/kernel_key.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "cache/entry_manifest.h"
#include "driver/compile/nvcc_compiler.h"
#include "driver/compile/nvrtc_compiler.h"
#include "driver/identity/compiler_choice.h"
#include "driver/identity/version.h"
#include "driver/source/device_code.h"

namespace optiml::identity {
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

// The folders a compile of the kernel searches, in the compiler's order (candidate_evaluator.cpp's
// request_of_text): the source's, the spec's, the target's.
std::vector<compile::IncludeDir> kernel_include_dirs(const spec::Spec& spec) {
    std::vector<compile::IncludeDir> dirs{{spec.source.parent_path()}};
    for (const auto& dir : spec.include_dirs) dirs.push_back({spec.file.parent_path() / dir});
    auto among = [](const std::vector<std::filesystem::path>& list,
                    const std::filesystem::path& dir) {
        return std::find(list.begin(), list.end(), dir) != list.end();
    };
    for (const auto& dir : spec.target.include_dirs) {
        if (among(spec.target.project_include_dirs, dir))
            dirs.push_back({dir});
        else if (among(spec.target.outside_include_dirs, dir))
            dirs.push_back({dir, true, false});
        else
            dirs.push_back({dir, false, false});
    }
    return dirs;
}

// Headers of the CUDA runtime and the C library that read no macro a build defines, NDEBUG above
// all; <assert.h> reads it only where `assert` is used, which device_reading's names tell.
constexpr std::array<std::string_view, 30> kPlainHeaders = {
    "cuda_runtime.h",   "cuda_runtime_api.h",
    "cuda.h",           "device_launch_parameters.h",
    "vector_types.h",   "vector_functions.h",
    "cuda_fp16.h",      "cuda_bf16.h",
    "math_constants.h", "device_functions.h",
    "assert.h",         "stdio.h",
    "stdint.h",         "math.h",
    "float.h",          "limits.h",
    "stddef.h",         "stdlib.h",
    "string.h",         "time.h",
    "ctype.h",          "errno.h",
    "stdarg.h",         "stdbool.h",
    "inttypes.h",       "signal.h",
    "locale.h",         "wchar.h",
    "setjmp.h",         "fenv.h"};

// Whether an include OptiML does not hash may read NDEBUG: a library of the toolkit or beside it
// (<cub/cub.cuh>, <cooperative_groups.h>) may; the plain headers above and the C++ standard
// library's (<vector>, <cstdio>: no extension, no folder; only <cassert> reads NDEBUG, where
// `assert` is used) do not.
bool may_read_ndebug(const std::string& include) {
    if (std::find(kPlainHeaders.begin(), kPlainHeaders.end(), include) != kPlainHeaders.end())
        return false;
    // OptiML's own headers (a drop-in call site includes the generated one) read NDEBUG only in
    // host code: whether an unused launcher is reported at exit.
    if (include.starts_with("optiml/")) return false;
    return include.find_first_of("./") != std::string::npos;
}

// The name a -D/-U option defines: "-DNAME=1" -> "NAME"; "" for other options.
std::string defined_name(const std::string& option) {
    if (!option.starts_with("-D") && !option.starts_with("-U")) return "";
    const std::string rest = option.substr(2);
    return rest.substr(0, rest.find_first_of("=("));
}

// Prefixes of the macros the toolkit's own headers read (CUB_*, THRUST_*, CCCL's, CUDA's): a
// define of one may change a toolkit header the kernel includes, which the key does not hash.
bool toolkit_macro(const std::string& name) {
    for (const std::string_view prefix : {"_", "CUDA", "CUB_", "THRUST_", "CCCL_", "LIBCUDACXX_",
                                          "NV_", "NVRTC", "CUTLASS", "CUTE_"})
        if (name.starts_with(prefix)) return true;
    return false;
}

DeviceReading device_reading(const std::vector<compile::ScannedFile>& files) {
    std::vector<std::string_view> contents;
    for (const auto& file : files) contents.push_back(file.contents);
    const source::SeenMacros macros = source::seen_macros(contents);
    DeviceReading reading;
    for (const auto& file : files) {
        reading.texts.push_back(source::device_relevant_text(file.contents, macros));
        reading.names.merge(source::named_identifiers(reading.texts.back()));
        for (const std::string& name : file.unscanned_includes)
            if (may_read_ndebug(name)) reading.reads_toolkit_library = true;
    }
    return reading;
}

}  // namespace

DeviceOptions device_options(const std::vector<std::string>& key_options,
                             const DeviceReading& reading) {
    DeviceOptions split;
    for (const std::string& option : key_options) {
        bool kept = true;
        if (option.starts_with("-I")) {
            kept = false;  // what it finds is hashed, file by file, with its path
        } else if (const std::string name = defined_name(option); !name.empty()) {
            kept = reading.names.count(name) || toolkit_macro(name) ||
                   (name == "NDEBUG" &&
                    (reading.names.count("assert") || reading.reads_toolkit_library));
        }
        (kept ? split.kept : split.left_out).push_back(option);
    }
    return split;
}

KernelSources scan_sources(const spec::Spec& spec) {
    KernelSources sources{
        compile::scan_includes(spec.source, kernel_include_dirs(spec), spec.file.parent_path()),
        {},
        {},
        {},
        {}};
    sources.device = device_reading(sources.files);
    if (!spec.check.compare.empty())
        sources.compare_files = compile::scan_includes(
            spec.check.compare, {{spec.check.compare.parent_path()}}, spec.file.parent_path());
    for (const auto& generator : spec.generators)
        sources.generator_files.push_back(
            compile::scan_includes(generator.source.path, {{generator.source.path.parent_path()}},
                                   spec.file.parent_path()));
    for (const auto& argument : spec.arguments)
        if (argument.is_pointer && argument.role != spec::Role::Output)
            add_data_file(argument.fill, sources);
    for (const auto& constant : spec.constants) add_data_file(constant.fill, sources);
    return sources;
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
    for (std::size_t i = 0; i < sources.files.size(); ++i)
        inputs.sources.push_back({sources.files[i].relative_path, sources.device.texts[i]});
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
    inputs.build_options = device_options(spec.target.key_options, sources.device).kept;
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
    cache::EntryManifest manifest = cache::read_entry_manifest(entry);
    manifest.other.erase("signature");  // it signed the other key
    manifest.tuned_with_llm = {
        {"key", entry.key},
        {"llm", manifest.key_inputs.is_object() ? manifest.key_inputs.value("llm", nlohmann::json())
                                                : nlohmann::json()}};
    manifest.key_inputs = base_summary;
    out.manifest = cache::to_json(manifest);
    return out;
}

std::string arch_name(int arch) {
    return "sm_" + std::to_string(arch);
}

}  // namespace optiml::identity
