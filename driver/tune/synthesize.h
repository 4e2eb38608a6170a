// `optiml synth "<request>" --reference <file> --name <kernel> --out <dir>`: a first kernel and
// its spec from a request in words (driver/llm/synthesis.h), written to <dir> once it compiles,
// its spec loads and, on a machine with a GPU, it matches the reference
// (driver/tune/detail/reference_check.h); then tuned there. Without a GPU it says the kernel is not
// verified, and how to verify it.
#pragma once

#include <ostream>
#include <string>

#include "driver/llm/llm_config.h"

namespace optiml::tune {

struct SynthOptions {
    std::string request;
    std::string reference;
    std::string name;
    std::string out;
    std::string experts;
    std::string cache_dir;
    std::string reference_entry;
    int arch = 90;
    llm::LlmOverrides llm;
};

// The exit status: 0 verified (and tuned), 3 written but not verified (no GPU), 1 no acceptable
// kernel or an error (said on `err`); progress goes to `log`. Throws for a reference that cannot be
// read.
int run_synth(const SynthOptions& options, std::ostream& log, std::ostream& err);

}  // namespace optiml::tune
