#include "driver/propose/rewrite_moves.h"

#include <algorithm>

#include "driver/propose/detail/rewrites.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::propose {
namespace {

struct Offer {
    std::string transformation;
    std::string rationale;
    std::vector<std::string> evidence;
    std::vector<search::Effect> expected;
    bool structural = false;
};

// The innermost loop of `text` whose lines hold `line`.
const source::KernelLoop* loop_holding(const source::KernelText& text, int line) {
    const source::KernelLoop* found = nullptr;
    for (const source::KernelLoop& loop : text.loops)
        if (loop.line <= line && line <= loop.last_line && (!found || loop.depth > found->depth))
            found = &loop;
    return found;
}

// Whether code on line `line` of `source` names `function` (comments and strings aside).
bool line_calls(std::string_view source, int line, std::string_view function) {
    for (const source::Token& token : source::code_tokens(source))
        if (token.line == line && source::token_text(source, token) == function) return true;
    return false;
}

}  // namespace

std::vector<search::Proposal> RewriteMoves::propose(const search::NodeInfo& node) {
    const search::Candidate& from = *node.candidate;
    const std::string source = context_.text_of(from);
    source::KernelText kernel;
    try {
        kernel = source::find_kernel(source, context_.kernel);
    } catch (const source::RewriteError&) {
        return {};  // a text the editor cannot read is not rewritten
    }
    const analysis::EvidenceReport* evidence = context_.evidence_of(from);
    const bool memory_bound = node.bottleneck == "memory";
    std::vector<search::Proposal> out;
    auto offer = [&](const std::optional<std::string>& text, Offer what) {
        if (!text) return;
        auto child = derive(context_, from, *text, what.transformation);
        if (!child) return;
        search::Proposal p;
        p.candidate = std::move(*child);
        p.kind = "rewrite";
        p.proposer = name();
        p.transformation = std::move(what.transformation);
        p.rationale = std::move(what.rationale);
        p.evidence = std::move(what.evidence);
        p.expected = std::move(what.expected);
        p.structural = what.structural;
        out.push_back(std::move(p));
    };

    offer(restrict_pointers(source, context_.kernel, context_.read_only),
          {"restrict_pointers",
           "no pointer argument aliases another: the compiler may keep loaded values in "
           "registers and reorder loads past stores",
           {memory_bound ? "roofline" : "metrics"},
           {{"instructions_executed", -1}}});
    offer(load_through_ldg(source, context_.kernel, context_.read_only),
          {"load_through_ldg",
           "the spec marks these arguments read-only: their loads may take the read-only data path",
           {memory_bound ? "roofline" : "metrics"},
           {{"l2_sectors", -1}}});

    // Privatized atomics: cites the dominant stalls on the atomics' lines, else the diagnosis.
    if (auto privatized = privatize_atomics(source, context_.kernel, context_.pointer_counts)) {
        std::vector<std::string> cited;
        if (evidence && evidence->stalls)
            for (const auto& stall : evidence->stalls->dominant)
                if (stall.line > 0 && line_calls(source, stall.line, "atomicAdd"))
                    cited.push_back(stall.id);
        if (cited.empty()) cited.push_back(memory_bound ? "roofline" : "metrics");
        offer(privatized,
              {"privatize_atomics",
               "the kernel adds into a small global array with atomics, which all blocks contend "
               "for in L2: each block adds into its own copy in shared memory and merges it once",
               cited,
               {{"l2_sectors", -1}},
               true});
    }

    // Unrolling: the loop holding each dominant stall; without samples, the innermost loops.
    std::vector<std::pair<const source::KernelLoop*, std::string>> loops;
    if (evidence && evidence->stalls)
        for (const auto& stall : evidence->stalls->dominant)
            if (const source::KernelLoop* loop = loop_holding(kernel, stall.line))
                loops.emplace_back(loop, stall.id);
    if (loops.empty()) {
        int deepest = -1;
        for (const source::KernelLoop& loop : kernel.loops) deepest = std::max(deepest, loop.depth);
        for (const source::KernelLoop& loop : kernel.loops)
            if (loop.depth == deepest) loops.emplace_back(&loop, "metrics");
    }
    std::vector<int> unrolled_lines;
    for (const auto& [loop, cited] : loops) {
        // A loop with its own unroll pragma keeps it: a factor in place of a full unroll of a
        // constant trip count made a tiled matmul 17.7x slower.
        if (loop->has_unroll_pragma || std::find(unrolled_lines.begin(), unrolled_lines.end(),
                                                 loop->line) != unrolled_lines.end())
            continue;
        unrolled_lines.push_back(loop->line);
        for (const int factor : {2, 4, 8}) {
            const std::string where = "line " + std::to_string(loop->line);
            offer(unroll_loop(source, context_.kernel, loop->line, factor),
                  {"unroll " + where + " by " + std::to_string(factor),
                   cited == "metrics" ? "an innermost loop: unrolling cuts its branch and index "
                                        "instructions and lets loads overlap"
                                      : "the loop holds dominant stall " + cited +
                                            ": unrolled, independent loads overlap",
                   {cited},
                   {{"instructions_executed", -1}}});
        }
    }

    // Loop rewrites on every loop where their precondition holds, citing the dominant stall the
    // loop holds when there is one (else the diagnosis).
    for (const source::KernelLoop& loop : kernel.loops) {
        std::vector<std::string> cited;
        if (evidence && evidence->stalls)
            for (const auto& stall : evidence->stalls->dominant)
                if (loop_holding(kernel, stall.line) == &loop) cited.push_back(stall.id);
        if (cited.empty()) cited.push_back(memory_bound ? "roofline" : "metrics");
        const std::string where = "line " + std::to_string(loop.line);
        // A loop the analysis cannot read (an unclosed header) is not rewritten.
        const auto attempt = [](const auto& rewrite) -> std::optional<std::string> {
            try {
                return rewrite();
            } catch (const source::RewriteError&) {
                return std::nullopt;
            }
        };
        for (const int width : {4, 2}) {
            const std::string vector = width == 4 ? "float4" : "float2";
            offer(
                attempt([&] { return vectorize_loads(source, context_.kernel, loop.line, width); }),
                {"vectorize_loads " + where + " " + vector,
                 "the loop reads float streams one element an iteration: one " + vector +
                     " load every " + std::to_string(width) +
                     " iterations where aligned cuts load instructions and the L1 "
                     "wavefronts each line costs",
                 cited,
                 {{"instructions_executed", -1}, {"l1tex_sectors", -1}}});
        }
        offer(attempt([&] { return hoist_invariant_loads(source, context_.kernel, loop.line); }),
              {"hoist_invariant_loads " + where,
               "the loop stores through a pointer, so without proof of no aliasing the compiler "
               "reloads its invariant loads every iteration: loaded once before it",
               cited,
               {{"instructions_executed", -1}, {"l1tex_sectors", -1}}});
        offer(attempt([&] { return accumulate_in_register(source, context_.kernel, loop.line); }),
              {"accumulate_in_register " + where,
               "the loop reads and writes one global element every iteration: accumulated in a "
               "register and stored once after the loop",
               cited,
               {{"instructions_executed", -1}, {"l1tex_sectors", -1}, {"l2_sectors", -1}}});
    }

    // Launch bounds at the node's block size, where registers limit how many warps fit.
    if (!kernel.has_launch_bounds && node.metrics && context_.block_threads) {
        const auto registers = node.metrics->find("registers_per_thread");
        const auto threads = context_.block_threads(from.parameters);
        if (registers != node.metrics->end() && threads && *threads > 0 && *threads <= 1024 &&
            registers->second > 32) {
            const int block = static_cast<int>(*threads);
            // Enough blocks for every warp slot of an SM (2048 threads), at least 2.
            const int full = std::max(2, 2048 / block);
            offer(add_launch_bounds(source, context_.kernel, block, 0),
                  {"launch_bounds(" + std::to_string(block) + ")",
                   "the block size is known: the compiler budgets registers for exactly " +
                       std::to_string(block) + " threads",
                   {"metrics"},
                   {{"registers_per_thread", -1}}});
            offer(add_launch_bounds(source, context_.kernel, block, full),
                  {"launch_bounds(" + std::to_string(block) + ", " + std::to_string(full) + ")",
                   "the kernel uses " + std::to_string(static_cast<int>(registers->second)) +
                       " registers a thread: asking for " + std::to_string(full) +
                       " resident blocks caps them so more warps hide latency",
                   node.bottleneck.empty() ? std::vector<std::string>{"metrics"}
                                           : std::vector<std::string>{"metrics", "roofline"},
                   {{"registers_per_thread", -1}, {"achieved_occupancy_pct", +1}}});
        }
    }
    return out;
}

}  // namespace optiml::propose
