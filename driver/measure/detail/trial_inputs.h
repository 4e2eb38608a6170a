// A correctness trial's inputs on the host: every fill of a problem drawn for one seed offset,
// each project generator called once for all the entries it fills. The same offset gives the
// same bytes. Host code only, tested without a GPU.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "driver/measure/detail/generator_library.h"
#include "driver/measure/protocol.h"

namespace optiml::measure {

struct HostInputs {
    std::vector<std::string> arguments;  // per argument: a non-output pointer's bytes, else empty
    std::vector<std::string> constants;  // per __constant__ symbol
};

class TrialInputs {
  public:
    // Loads the problem's generators (throws std::runtime_error as GeneratorLibrary does).
    explicit TrialInputs(const Problem& problem);

    // Fills with `seed_offset` (the trial's; a generator gets it as its seed). Throws
    // std::runtime_error when a fill cannot be made (a data file, a generator that fails).
    HostInputs make(std::uint64_t seed_offset) const;

  private:
    const Problem& problem_;
    std::vector<std::unique_ptr<GeneratorLibrary>> generators_;
};

}  // namespace optiml::measure
