#include "driver/compile/image_cache.h"

#include "cache/key.h"
#include "driver/compile/nvcc_compiler.h"
#include "driver/compile/nvrtc_compiler.h"

namespace optiml::compile {
namespace {

constexpr const char* kImageFile = "image";

}  // namespace

std::string image_key(const CompileRequest& request, const std::string& headers_digest) {
    // NVRTC's images keep the keys they had before nvcc joined; nvcc's name their backend.
    std::vector<cache::TaggedField> fields{{"kind", "compiled_image"}};
    if (request.backend == Backend::Nvcc) {
        fields.emplace_back("backend", "nvcc");
        fields.emplace_back("nvcc_version", nvcc_version());
    } else {
        fields.emplace_back("nvrtc_version", nvrtc_version());
        // Images from before NVRTC's own cache was turned off may be another variant's.
        fields.emplace_back("nvrtc_own_cache", "off");
    }
    fields.insert(fields.end(), {
                                    {"source_name", request.source_name},
                                    {"source", request.source_text},
                                    {"headers", headers_digest},
                                    {"name_expression", request.name_expression},
                                    {"output", request.output == Output::Cubin ? "cubin" : "ptx"},
                                });
    // implicit_options() holds the arch, -lineinfo and every define, in a fixed order.
    for (const std::string& option : implicit_options(request))
        fields.emplace_back("option", option);
    for (const std::string& option : request.options) fields.emplace_back("nvrtc_option", option);
    // The target's flags: only when present, so images of builds without them keep their keys.
    for (const std::string& option : request.build_options)
        fields.emplace_back("build_option", option);
    if (request.relocatable) fields.emplace_back("relocatable", "true");
    // nvcc compiling the device code alone falls back to the whole file: both texts are read.
    if (!request.whole_file_text.empty())
        fields.emplace_back("whole_file", request.whole_file_text);
    // NVRTC compiling first: its text and version decide the image where it can.
    if (!request.nvrtc_text.empty() && request.backend == Backend::Nvcc) {
        fields.emplace_back("nvrtc_version", nvrtc_version());
        fields.emplace_back("nvrtc_own_cache", "off");
        fields.emplace_back("nvrtc_text", request.nvrtc_text);
    }
    return cache::compute_tagged_key(fields);
}

ImageCache::ImageCache(std::filesystem::path root) : store_(std::move(root)) {}

std::optional<CompileResult> ImageCache::find(const std::string& key) const {
    try {
        const std::optional<cache::Entry> entry = store_.get(key);
        if (!entry) return std::nullopt;
        const auto image = entry->files.find(kImageFile);
        if (image == entry->files.end()) return std::nullopt;
        CompileResult result;
        result.ok = true;
        result.binary = image->second;
        result.lowered_name = entry->manifest.value("lowered_name", "");
        result.log = entry->manifest.value("log", "");
        if (result.lowered_name.empty()) return std::nullopt;
        return result;
    } catch (const cache::CacheError&) {
        return std::nullopt;
    }
}

void ImageCache::store(const std::string& key, const CompileResult& result, Backend backend) {
    if (!result.ok) return;
    cache::Entry entry;
    entry.key = key;
    entry.manifest = {{"kind", "compiled_image"},
                      {"lowered_name", result.lowered_name},
                      {"log", result.log},
                      {"backend", to_string(backend)},
                      {"compiler_version", compiler_version(backend)}};
    entry.files[kImageFile] = result.binary;
    try {
        store_.put(entry);
    } catch (const std::exception&) {
        // Not cached: the next request compiles again.
    }
}

CompileResult ImageCache::find_or_compile(const std::string& key, const CompileRequest& request,
                                          bool* cached) {
    std::optional<CompileResult> hit = find(key);
    if (cached) *cached = hit.has_value();
    if (hit) return std::move(*hit);
    CompileResult result = compile(request);
    store(key, result, request.backend);
    return result;
}

std::filesystem::path image_cache_dir(const std::filesystem::path& cache_root) {
    return cache_root / "images";
}

}  // namespace optiml::compile
