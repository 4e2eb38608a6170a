// The original kernel of a spec whose kernel stays among host code, compiled by OptiML for every
// architecture of the target (a CUBIN each, and PTX of the highest for newer GPUs) with the
// target's flags, as the tuning compiled the baseline: the launcher's fallback where the
// program's own translation unit does not define the kernel (codegen/launcher.h). Needs nvcc,
// not a GPU.
#pragma once

#include <string>
#include <vector>

#include "driver/codegen/launcher.h"
#include "driver/spec/spec.h"

namespace optiml::build {

// Whether the launcher's fallback is the program's own kernel (a kernel among host code).
bool kernel_stays_in_its_file(const spec::Spec& spec, int arch);

// One entry per architecture that compiled, for the spec's instantiation and for each other one
// the drop-in form dispatches by block (codegen::block_instances); each architecture where the
// spec's own did not compile adds a line to `problems`.
std::vector<codegen::Variant> compile_originals(const spec::Spec& spec,
                                                const std::vector<int>& archs,
                                                std::vector<std::string>& problems);

}  // namespace optiml::build
