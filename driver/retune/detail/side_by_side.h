// Two tuned binaries of one kernel timed against each other in one worker, interleaved run by
// run, so a driver, clock or temperature change between nightly runs moves both alike: what
// `optiml retune` decides with. The exact CUBINs of the entries run (what ships is what is timed).
#pragma once

#include <string>

#include "cache/store.h"
#include "driver/measure/protocol.h"
#include "driver/measure/worker_client.h"
#include "driver/spec/spec.h"

namespace optiml::retune {

// Verifies `challenger` against the original kernel on fresh inputs, then times it interleaved
// with `incumbent` (the measurement's incumbent_* fields). Both are entries of `spec` for the
// device's architecture. Throws std::runtime_error when the original kernel cannot be set up.
measure::Measurement time_side_by_side(const spec::Spec& spec, const measure::DeviceInfo& device,
                                       const cache::Entry& challenger,
                                       const cache::Entry& incumbent,
                                       const std::string& host_compiler);

}  // namespace optiml::retune
