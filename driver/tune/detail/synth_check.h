// What `optiml synth` asks of a synthesized kernel and its spec before writing them out: no
// #include (a compile log sent back for repair would carry the file's contents to the endpoint),
// NVRTC compiles it, and the spec loads (docs/spec.md) with the kernel as its source.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace optiml::tune {

struct SynthFiles {
    std::filesystem::path kernel;  // <dir>/<name>.cu
    std::filesystem::path spec;    // <dir>/<name>.optiml.json
};

// Writes the kernel and the spec (its "name" and "source" set to `name` and the kernel's file
// name) into `dir`, creating it.
SynthFiles write_synth_files(const std::filesystem::path& dir, const std::string& name,
                             const std::string& kernel, nlohmann::json spec);

// "" when the spec loads and the kernel compiles for `arch` at the spec's default parameters (as
// the tuning compiles it); else the problem, for the model.
std::string synth_problem(const std::filesystem::path& dir, const std::string& name,
                          const std::string& kernel, const nlohmann::json& spec, int arch);

}  // namespace optiml::tune
