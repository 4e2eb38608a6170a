#include "driver/tune/detail/profiled_variant.h"

#include <sstream>
#include <stdexcept>

#include "cache/entry_manifest.h"
#include "cache/key.h"
#include "driver/base/read_file.h"
#include "driver/search/candidate_json.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/source_variants.h"

namespace optiml::tune {

ProfiledVariant original_variant(const spec::Spec& spec) {
    return {"original", search::Candidate(spec.default_config()), base::read_file(spec.source), ""};
}

ProfiledVariant parameters_variant(const spec::Spec& spec, const std::string& text) {
    ProfiledVariant variant = original_variant(spec);
    variant.kind = "parameters";
    std::stringstream items(text);
    std::string item;
    while (std::getline(items, item, ',')) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || !variant.candidate.parameters.count(item.substr(0, eq)))
            throw std::invalid_argument("--variant: '" + item +
                                        "' is not NAME=VALUE for one of the spec's parameters");
        variant.candidate.parameters[item.substr(0, eq)] = std::stoll(item.substr(eq + 1));
    }
    return variant;
}

ProfiledVariant shipped_variant(const spec::Spec& spec, const cache::Entry& entry) {
    const cache::EntryManifest manifest = cache::read_entry_manifest(entry);
    ProfiledVariant variant{"tuned", manifest.winner, "", entry.key};
    if (variant.candidate.is_original_source()) {
        variant.source_text = base::read_file(spec.source);
        return variant;
    }
    const std::string where = "cache entry " + entry.key.substr(0, 12) + "...";
    const auto text = entry.files.find(manifest.file("source"));
    if (text == entry.files.end())
        throw cache::CacheError(where + " ships a derived source (" +
                                variant.candidate.source_id.substr(0, 12) +
                                "...) but holds no text of it: retune the kernel");
    if (cache::sha256_hex(text->second) != variant.candidate.source_id)
        throw cache::CacheError(where + ": its source file does not hash to its source_id " +
                                variant.candidate.source_id.substr(0, 12) +
                                "...: retune the kernel");
    variant.source_text = text->second;
    return variant;
}

compile::CompileRequest variant_request(const spec::Spec& spec, const ProfiledVariant& variant,
                                        int arch, compile::Output output) {
    // The original text is the variant's own (read once), a derived one is added under its id:
    // the request is then the one tuning made for this candidate.
    SourceVariants sources(variant.candidate.is_original_source() ? variant.source_text
                                                                  : std::string());
    if (!variant.candidate.is_original_source()) sources.add(variant.source_text);
    return make_compile_request(spec, variant.candidate, sources, arch, output);
}

std::string variant_label(const ProfiledVariant& variant) {
    if (variant.kind == "original") return "original";
    return search::format_candidate(variant.candidate);
}

nlohmann::json variant_json(const ProfiledVariant& variant,
                            const compile::CompileRequest& request) {
    nlohmann::json json = {{"kind", variant.kind},
                           {"parameters", variant.candidate.parameters},
                           {"source_sha256", cache::sha256_hex(request.source_text)},
                           {"options", variant.candidate.options},
                           {"transformations", variant.candidate.transformations},
                           {"compile_options", request.options}};
    if (!variant.candidate.grid.empty()) json["grid"] = variant.candidate.grid;
    if (!request.build_options.empty()) json["build_options"] = request.build_options;
    if (!variant.entry_key.empty()) json["entry_key"] = variant.entry_key;
    return json;
}

}  // namespace optiml::tune
