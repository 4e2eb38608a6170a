#include "driver/propose/option_moves.h"

#include <algorithm>
#include <array>

#include "driver/propose/detail/kernel_features.h"

namespace optiml::propose {
namespace {

bool has_option_prefix(const search::Candidate& candidate, const std::string& prefix) {
    return std::any_of(candidate.options.begin(), candidate.options.end(),
                       [&](const std::string& o) { return o.rfind(prefix, 0) == 0; });
}

}  // namespace

std::vector<search::Proposal> OptionMoves::propose(const search::NodeInfo& node) {
    const search::Candidate& from = *node.candidate;
    const KernelFeatures features = kernel_features(context_.text_of(from), context_.kernel);
    const bool diagnosed = !node.bottleneck.empty();
    std::vector<search::Proposal> out;
    auto offer = [&](const std::string& option, const std::string& rationale,
                     std::vector<std::string> evidence, std::vector<search::Effect> expected) {
        // One value per option: "--maxrregcount=64" is not offered beside "--maxrregcount=96".
        const std::size_t equals = option.find('=');
        if (has_option_prefix(from,
                              equals == std::string::npos ? option : option.substr(0, equals + 1)))
            return;
        search::Proposal p;
        p.candidate = with_option(from, option);
        p.kind = "options";
        p.proposer = name();
        p.transformation = option;
        p.rationale = rationale;
        p.evidence = std::move(evidence);
        p.expected = std::move(expected);
        out.push_back(std::move(p));
    };
    const std::vector<std::string> roofline =
        diagnosed ? std::vector<std::string>{"roofline"} : std::vector<std::string>{"metrics"};
    const bool fast_math_set = has_option_prefix(from, "--use_fast_math");

    if (features.float_math && !fast_math_set)
        offer("--use_fast_math",
              "the kernel calls floating-point math functions or divides: fast intrinsics issue "
              "fewer instructions (" +
                  (diagnosed ? node.bottleneck + "-bound" : std::string("not profiled")) + ")",
              roofline, {{"instructions_executed", -1}});
    if (features.float_division && !fast_math_set)
        offer("--prec-div=false", "the kernel divides: approximate division is a few instructions",
              roofline, {{"instructions_executed", -1}});
    if ((features.float_math || features.float_division) && !fast_math_set)
        offer("--ftz=true", "denormals flushed to zero skip the slow path of float operations",
              roofline, {{"instructions_executed", -1}});
    if (features.loops > 0)
        offer("--extra-device-vectorization",
              "the kernel loops: the compiler may vectorize its loads and stores", {"metrics"},
              {{"instructions_executed", -1}});
    if (node.bottleneck == "memory")
        offer("--ptxas-options=-dlcm=cg",
              "memory-bound: caching global loads in L2 only leaves L1 to what is reused",
              {"roofline"}, {});

    // A register cap below what the node uses, where registers are what a cap can lower.
    if (node.metrics && !has_option_prefix(from, "--maxrregcount=")) {
        const auto registers = node.metrics->find("registers_per_thread");
        if (registers != node.metrics->end()) {
            constexpr std::array<int, 5> caps = {32, 64, 96, 128, 168};
            int offered = 0;
            for (auto cap = caps.rbegin(); cap != caps.rend() && offered < 2; ++cap) {
                if (*cap >= registers->second) continue;
                offer("--maxrregcount=" + std::to_string(*cap),
                      "the kernel uses " + std::to_string(static_cast<int>(registers->second)) +
                          " registers a thread: a cap of " + std::to_string(*cap) +
                          " lets more warps fit on an SM",
                      diagnosed ? std::vector<std::string>{"metrics", "roofline"}
                                : std::vector<std::string>{"metrics"},
                      {{"registers_per_thread", -1}, {"achieved_occupancy_pct", +1}});
                ++offered;
            }
        }
    }
    return out;
}

}  // namespace optiml::propose
