// `optiml profile --spec`: the evidence report of one variant of a kernel (the original, the
// cached winner, or given parameters) on a GPU of this machine. The variant is verified and timed
// as in tuning, then profiled: Range Profiler counters, PC-sampling stalls by line, the roofline
// against the device's calibrated ceilings.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace optiml::tune {

struct SpecProfileOptions {
    std::filesystem::path spec;
    // A build folder: the kernel as that build compiles it, and its key
    // (identity/kernel_identity.h).
    std::filesystem::path build_dir;
    int device = 0;
    // "original" (the source as written), "tuned" (the cached winner for this GPU: the candidate
    // its entry ships, with its own source text, compile options and parameters), or parameters:
    // "block_size_x=256,items_per_thread=4". profiled_variant.h resolves it.
    std::string variant = "original";
    std::filesystem::path cache_dir;           // where "tuned" and the ceilings are looked up
    std::vector<std::filesystem::path> seeds;  // seed caches for "tuned"
    std::filesystem::path json_out;            // optional
    std::filesystem::path markdown_out;        // optional (Markdown also goes to `out`)
    bool counters = true;
    bool pc_sampling = true;
    // Only run the variant (verify and time it): lets an outside profiler such as ncu watch the
    // same launches on the same inputs. `json_out` then gets the timing and the candidate.
    bool run_only = false;
};

int run_spec_profile(const SpecProfileOptions& options, std::ostream& out, std::ostream& log);

}  // namespace optiml::tune
