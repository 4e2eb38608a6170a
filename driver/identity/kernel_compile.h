// How the user's build compiles the kernel: the compile request for a configuration of the spec's
// parameters (its values as defines), with the spec's and the target's options and include folders.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "driver/compile/compile_request.h"
#include "driver/spec/spec.h"

namespace optiml::identity {

// Everything but the text comes from the spec and the parameters. The name expression is taken
// at `config`: a parameter among the template arguments ("MatrixMulCUDA<tile_size>") becomes its
// value ("MatrixMulCUDA<32>"), so the compiler instantiates, and the image is searched for, that
// kernel.
compile::CompileRequest request_of_text(const spec::Spec& spec,
                                        const std::map<std::string, std::int64_t>& config,
                                        std::string source_text, int arch, compile::Output output);

// A compile request for `config` of the spec's own source (an empty config: no defines), for the
// compiler choose_compiler() picks (compiler_choice.h), as are a candidate's below.
compile::CompileRequest make_compile_request(const spec::Spec& spec,
                                             const std::map<std::string, std::int64_t>& config,
                                             int arch, compile::Output output);
// The same for the compiler given (what choose_compiler itself tries).
compile::CompileRequest make_compile_request(const spec::Spec& spec,
                                             const std::map<std::string, std::int64_t>& config,
                                             int arch, compile::Output output,
                                             compile::Backend backend);

}  // namespace optiml::identity
