// Which exact kernel `optiml profile --spec --variant` times: the original, given parameters, or
// the candidate a cache entry ships (its source text, its compile options and its parameters,
// read from the entry as tuning wrote them), so that "tuned" re-times the winner itself and not
// its parameters alone on the original source. No GPU needed: the result is a compile request.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "cache/store.h"
#include "driver/compile/compile_request.h"
#include "driver/search/search.h"
#include "driver/spec/spec.h"

namespace optiml::tune {

struct ProfiledVariant {
    std::string kind;  // "original", "parameters" or "tuned"
    search::Candidate candidate;
    std::string source_text;  // the exact text compiled
    std::string entry_key;    // "tuned": the entry it came from
};

// The spec's source at its defaults.
ProfiledVariant original_variant(const spec::Spec& spec);
// "a=1,b=2" over the spec's defaults, on the spec's source. Throws std::invalid_argument naming
// an item that is not NAME=VALUE of one of the spec's parameters.
ProfiledVariant parameters_variant(const spec::Spec& spec, const std::string& text);
// The candidate `entry` ships: a derived source is the entry's own text (its "source" file), which
// must hash to the manifest's source_id; an original-source winner is the spec's source. Throws
// cache::CacheError when the entry lacks the text or it does not match.
ProfiledVariant shipped_variant(const spec::Spec& spec, const cache::Entry& entry);

// What the compiler is given for `variant` on `arch` (identity::make_compile_request's, as tuning
// compiled the candidate).
compile::CompileRequest variant_request(const spec::Spec& spec, const ProfiledVariant& variant,
                                        int arch, compile::Output output);

// "original", or format_candidate() of the variant.
std::string variant_label(const ProfiledVariant& variant);

// The report's "variant": kind, parameters, source_sha256 (of the text compiled), options (the
// candidate's own), transformations, compile_options (every option the compiler got) and, for
// "tuned", the entry's key.
nlohmann::json variant_json(const ProfiledVariant& variant, const compile::CompileRequest& request);

}  // namespace optiml::tune
