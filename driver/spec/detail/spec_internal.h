// Steps of parse_spec(), each in its own file. Internal to driver/spec.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "driver/spec/spec.h"

namespace optiml::spec::detail {

// spec_markers.cpp: rejects the first "TODO: ..." marker left in the document (optiml init's
// unfinished decisions), naming its field and what to write there.
void reject_unfinished(const nlohmann::json& json, const std::string& file_label);

// spec_parse.cpp: reads every field into `spec`, checking types, ranges and unknown fields.
void read_fields(const nlohmann::json& json, const std::string& file_label, Spec& spec);

// spec_validate.cpp: checks across fields: unique names, names used by expressions, an output
// exists, and the default configuration (the original kernel) evaluates and is launchable.
void validate(const Spec& spec, const std::string& file_label);

// kernel_source.cpp: the source's shapes that would break the build later: a template kernel
// named without template arguments, a main() the launcher's translation unit would duplicate.
void check_kernel_source(const Spec& spec, const std::string& file_label);

// spec_normalize.cpp: the canonical JSON that the cache key hashes.
nlohmann::json normalize(const Spec& spec);

// "kernel" -> true; used for every name a spec introduces.
bool is_identifier(const std::string& name);
bool is_cpp_keyword(const std::string& name);

}  // namespace optiml::spec::detail
