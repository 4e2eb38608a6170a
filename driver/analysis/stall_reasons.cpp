// The table of PC-sampling stall reasons (names as CUPTI reports them on Hopper, prefix dropped)
// and what each means, in words a kernel author can act on.
#include <string>
#include <string_view>

#include "driver/analysis/stalls.h"

namespace optiml::analysis {

namespace {

constexpr std::string_view kReasonPrefix = "smsp__pcsamp_warps_issue_stalled_";

struct ReasonText {
    std::string_view reason;
    std::string_view description;
};

constexpr ReasonText kReasons[] = {
    {"long_scoreboard",
     "waiting for data from global or local memory: a load through L1TEX (register spills "
     "included) is still in flight"},
    {"short_scoreboard",
     "waiting for a result from the MIO path: shared memory, special math functions (sin, rsqrt) "
     "or shuffles"},
    {"wait", "waiting out a fixed compiler-scheduled delay between dependent instructions"},
    {"barrier", "waiting at __syncthreads() (or a named barrier) for the rest of the block"},
    {"math_pipe_throttle",
     "the arithmetic pipe this instruction needs (FMA, ALU, FP64, tensor) is busy: the kernel "
     "saturates it"},
    {"mio_throttle",
     "the memory-input/output queue is full: too many shared-memory, special-function or "
     "shuffle instructions in flight"},
    {"lg_throttle",
     "the local/global memory instruction queue is full: too many separate loads and stores "
     "(wider or fewer accesses help)"},
    {"tex_throttle", "the texture/L1TEX unit's queue is full"},
    {"not_selected",
     "ready to issue, but the scheduler picked another warp: enough parallelism, not a "
     "bottleneck by itself"},
    {"selected", "issuing an instruction (not a stall)"},
    {"dispatch_stall", "picked to issue, but the dispatcher could not send the instruction on"},
    {"no_instructions",
     "no instruction fetched yet: an instruction-cache miss or a jump to far-away code, common "
     "in very short kernels"},
    {"imc_miss", "waiting for a constant-cache miss (kernel arguments, __constant__ data)"},
    {"branch_resolving",
     "waiting for a branch target to be computed or for the warp to reconverge"},
    {"drain", "at the end of the kernel, waiting for its outstanding memory writes to finish"},
    {"sleeping",
     "all its threads are blocked, yielding or asleep (__nanosleep, or waiting on diverged "
     "siblings)"},
    {"membar", "waiting at a memory fence (__threadfence) for earlier writes to become visible"},
    {"misc", "a rare hardware condition the profiler does not name"},
    {"gmma", "waiting for a warpgroup matrix multiply (wgmma) to finish (Hopper)"},
    {"warpgroup_arrive", "waiting for the warpgroup's wgmma operands to arrive (Hopper)"},
};

}  // namespace

std::string normalize_stall_reason(std::string_view reason) {
    if (reason.starts_with(kReasonPrefix)) reason.remove_prefix(kReasonPrefix.size());
    return std::string(reason);
}

std::string describe_stall_reason(std::string_view reason) {
    const std::string normalized = normalize_stall_reason(reason);
    for (const ReasonText& entry : kReasons) {
        if (entry.reason == normalized) return std::string(entry.description);
    }
    return "stall reason \"" + normalized +
           "\" reported by the profiler; not in OptiML's table (see the Nsight Compute "
           "documentation for this GPU)";
}

bool is_issuing_reason(std::string_view reason) {
    return normalize_stall_reason(reason) == "selected";
}

}  // namespace optiml::analysis
