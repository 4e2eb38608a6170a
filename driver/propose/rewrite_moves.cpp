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
    std::vector<std::string> grid = {};  // the child's grid, where the rewrite changes it
};

// Steps of k a product's shared tiles hold: 13 KB of float tiles for up to 64 rows and 128
// columns of elements a block.
constexpr int kTileDepth = 16;

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

// A rewrite the loop analysis cannot read (an unclosed header) is not offered.
template <typename Rewrite>
std::optional<std::string> attempt(const Rewrite& rewrite) {
    try {
        return rewrite();
    } catch (const source::RewriteError&) {
        return std::nullopt;
    }
}

// One node's edges as they are collected: each rewritten text becomes a derived child.
class Offers {
  public:
    Offers(const KernelContext& context, const search::NodeInfo& node, std::string proposer)
        : context_(context), from_(*node.candidate), proposer_(std::move(proposer)) {}

    void add(const std::optional<std::string>& text, Offer what) {
        if (!text) return;
        auto child = derive(context_, from_, *text, what.transformation);
        if (!child) return;
        if (!what.grid.empty()) child->grid = std::move(what.grid);
        search::Proposal p;
        p.candidate = std::move(*child);
        p.kind = "rewrite";
        p.proposer = proposer_;
        p.transformation = std::move(what.transformation);
        p.rationale = std::move(what.rationale);
        p.evidence = std::move(what.evidence);
        p.expected = std::move(what.expected);
        p.structural = what.structural;
        out_.push_back(std::move(p));
    }
    std::vector<search::Proposal> take() { return std::move(out_); }

  private:
    const KernelContext& context_;
    const search::Candidate& from_;
    std::string proposer_;
    std::vector<search::Proposal> out_;
};

// What every rewrite of one node reads.
struct NodeText {
    const KernelContext& context;
    const search::NodeInfo& node;
    const std::string& source;
    const source::KernelText& kernel;
    const analysis::EvidenceReport* evidence;
    std::string diagnosis() const { return node.bottleneck == "memory" ? "roofline" : "metrics"; }
    // The node's launch grid: its own where a rewrite changed it, else the spec's.
    const std::vector<std::string>& grid() const {
        return node.candidate->grid.empty() ? context.grid : node.candidate->grid;
    }
    // The dominant stalls on lines that satisfy `on_line`, else the diagnosis.
    template <typename OnLine>
    std::vector<std::string> cited(const OnLine& on_line) const {
        std::vector<std::string> ids;
        if (evidence && evidence->stalls)
            for (const auto& stall : evidence->stalls->dominant)
                if (stall.line > 0 && on_line(stall.line)) ids.push_back(stall.id);
        if (ids.empty()) ids.push_back(diagnosis());
        return ids;
    }
};

void offer_pointer_rewrites(const NodeText& at, Offers& offers) {
    offers.add(restrict_pointers(at.source, at.context.kernel, at.context.read_only),
               {"restrict_pointers",
                "no pointer argument aliases another: the compiler may keep loaded values in "
                "registers and reorder loads past stores",
                {at.diagnosis()},
                {{"instructions_executed", -1}}});
    offers.add(
        load_through_ldg(at.source, at.context.kernel, at.context.read_only),
        {"load_through_ldg",
         "the spec marks these arguments read-only: their loads may take the read-only data path",
         {at.diagnosis()},
         {{"l2_sectors", -1}}});
}

// Rewrites that change which thread does which work or where data lives.
void offer_structural_rewrites(const NodeText& at, Offers& offers) {
    const search::Candidate& from = *at.node.candidate;
    const std::vector<std::string>& grid = at.grid();
    // Privatized atomics: cites the dominant stalls on the atomics' lines.
    const std::string& kernel = at.context.kernel;
    if (auto privatized = privatize_atomics(at.source, kernel, at.context.pointer_counts)) {
        const auto cited =
            at.cited([&](int line) { return line_calls(at.source, line, "atomicAdd"); });
        offers.add(privatized,
                   {"privatize_atomics",
                    "the kernel adds into a small global array with atomics, which all blocks "
                    "contend for in L2: each block adds into its own copy in shared memory and "
                    "merges it once",
                    cited,
                    {{"l2_sectors", -1}},
                    true});
        // One item a thread merges a copy for every block of items; over 64 items a thread the
        // merge is amortized. Coarsened first: a privatized body shares memory, which
        // coarsen_items declines.
        const auto coarse = attempt([&] { return coarsen_items(at.source, kernel, 64); });
        if (coarse && grid.size() == 3)
            offers.add(privatize_atomics(*coarse, kernel, at.context.pointer_counts),
                       {"privatize_atomics over 64 items a thread",
                        "the kernel adds into a small global array with atomics: each thread "
                        "runs 64 items, a block apart, and each block adds into its own copy in "
                        "shared memory, merged once for all of them",
                        cited,
                        {{"l2_sectors", -1}},
                        true,
                        {"ceil_div(" + grid[0] + ", 64)", grid[1], grid[2]}});
        // Bytes read one a thread take a load each: four adjacent a thread come in one.
        const auto narrow = attempt([&] { return vectorize_narrow_loads(at.source, kernel); });
        const auto quads =
            narrow ? attempt([&] { return coarsen_items(*narrow, kernel, 64); }) : std::nullopt;
        if (quads && grid.size() == 3)
            offers.add(privatize_atomics(*quads, kernel, at.context.pointer_counts),
                       {"privatize_atomics over 256 items a thread, 4 a load",
                        "the kernel adds into a small global array with atomics, one narrow "
                        "element a thread: each thread loads 4 adjacent elements at once and runs "
                        "64 such quads, a block apart, and each block adds into its own copy in "
                        "shared memory, merged once for all of them",
                        cited,
                        {{"l2_sectors", -1}, {"instructions_executed", -1}},
                        true,
                        {"ceil_div(" + grid[0] + ", 256)", grid[1], grid[2]}});
    }
    // A naive transpose through a shared tile: the stores a column apart are what it answers.
    offers.add(attempt([&] { return transpose_through_shared(at.source, kernel); }),
               {"transpose_through_shared",
                "each warp's stores of the transposed element land a column apart, one sector "
                "each: the block stages its tile in padded shared memory and writes it out "
                "row by row",
                at.cited([&](int) { return true; }),
                {{"l2_sectors", -1}},
                true});
    // A stencil through a tile with its halo: each point is loaded once a block, not once for
    // every neighbour that reads it.
    offers.add(attempt([&] { return stage_halo(at.source, kernel); }),
               {"stage_halo",
                "each point of the input is loaded by every neighbour that reads it: the block "
                "loads its tile with the halo its reads reach into shared memory once, and the "
                "reads take their values from there",
                at.cited([&](int) { return true; }),
                {{"l1tex_sectors", -1}},
                true});
    // A warp per row: the grid's x grows 32 times, so blocks must hold whole warps.
    const auto threads =
        at.context.block_threads ? at.context.block_threads(from.parameters) : std::nullopt;
    if (grid.size() == 3 && threads && *threads % 32 == 0) {
        offers.add(attempt([&] { return cooperate_rows(at.source, at.context.kernel); }),
                   {"warp_per_row",
                    "each thread walks a whole row, so a warp's loads touch 32 rows at once and "
                    "few threads run: the lanes of a warp share each row's loops (coalesced) and "
                    "combine what they accumulate with shuffles",
                    at.cited([&](int line) { return loop_holding(at.kernel, line) != nullptr; }),
                    {{"l1tex_sectors", -1}, {"achieved_occupancy_pct", +1}},
                    true,
                    {"(" + grid[0] + ") * 32", grid[1], grid[2]}});
    }
}

// Register blocking by 2 x 2 and 4 x 4 elements a thread: the grid's x and y divided by them;
// each also through shared tiles of the product's operands, and the tiles alone.
void offer_register_blocks(const NodeText& at, Offers& offers) {
    const std::vector<std::string>& grid = at.grid();
    if (grid.size() != 3) return;
    const auto cited = at.cited([&](int line) { return loop_holding(at.kernel, line) != nullptr; });
    for (const int side : {1, 2, 4}) {
        const std::string k = std::to_string(side);
        offers.add(
            attempt([&] {
                return register_block(at.source, at.context.kernel, side, side, kTileDepth);
            }),
            {"shared_tiles " + std::to_string(kTileDepth) + " deep" +
                 (side > 1 ? ", " + k + "x" + k + " a thread" : ""),
             "every thread of a block's row (column) loads the same operand of the product "
             "loop at each step: the block loads " +
                 std::to_string(kTileDepth) +
                 " steps of each operand once into shared memory and its threads read them "
                 "from there" +
                 (side > 1 ? ", each computing " + k + " x " + k + " elements a block apart" : ""),
             cited,
             {{"l1tex_sectors", -1}},
             true,
             side > 1 ? std::vector<std::string>{"ceil_div(" + grid[0] + ", " + k + ")",
                                                 "ceil_div(" + grid[1] + ", " + k + ")", grid[2]}
                      : std::vector<std::string>{}});
    }
    for (const int side : {2, 4}) {
        const std::string k = std::to_string(side);
        offers.add(
            attempt([&] { return register_block(at.source, at.context.kernel, side, side); }),
            {"register_block " + k + "x" + k,
             "each thread computes one element of a 2-D output and loads what its neighbours "
             "also load: a thread computes " +
                 k + " x " + k +
                 " elements, a block apart, its loops run once for all of them, and what they "
                 "share is loaded once",
             at.cited([&](int line) { return loop_holding(at.kernel, line) != nullptr; }),
             {{"l1tex_sectors", -1}},
             true,
             {"ceil_div(" + grid[0] + ", " + k + ")", "ceil_div(" + grid[1] + ", " + k + ")",
              grid[2]}});
    }
}

// Thread coarsening by 2, 8, 32 and 128: the grid's x divided by the factor; four adjacent
// narrow elements a thread from one load: divided by 4.
void offer_coarsening(const NodeText& at, Offers& offers) {
    const std::vector<std::string>& grid = at.grid();
    if (grid.size() != 3) return;
    offers.add(attempt([&] { return vectorize_narrow_loads(at.source, at.context.kernel); }),
               {"vectorize_narrow_loads",
                "each thread reads one narrow element, a load for every byte or two: four "
                "adjacent items a thread take one 4- or 8-byte load",
                {at.diagnosis()},
                {{"instructions_executed", -1}},
                true,
                {"ceil_div(" + grid[0] + ", 4)", grid[1], grid[2]}});
    // Up to 128: a privatized histogram merges its copy once a block, which pays only over many
    // items a thread (on an H100, 26.97 ms -> 2.26 ms at 2 items, where a grid-stride expert with
    // hundreds of bytes a thread takes 0.054 ms).
    for (const int factor : {2, 8, 32, 128}) {
        const std::string k = std::to_string(factor);
        offers.add(attempt([&] { return coarsen_items(at.source, at.context.kernel, factor); }),
                   {"coarsen_items by " + k,
                    "each thread runs " + k +
                        " items, a block apart: its index arithmetic and what it does once per "
                        "block are amortized, and its items' loads can overlap",
                    {at.diagnosis()},
                    {{"instructions_executed", -1}},
                    true,
                    {"ceil_div(" + grid[0] + ", " + k + ")", grid[1], grid[2]}});
    }
}

// Unrolling: the loop holding each dominant stall; without samples, the innermost loops.
void offer_unrolls(const NodeText& at, Offers& offers) {
    std::vector<std::pair<const source::KernelLoop*, std::string>> loops;
    if (at.evidence && at.evidence->stalls)
        for (const auto& stall : at.evidence->stalls->dominant)
            if (const source::KernelLoop* loop = loop_holding(at.kernel, stall.line))
                loops.emplace_back(loop, stall.id);
    if (loops.empty()) {
        int deepest = -1;
        for (const source::KernelLoop& loop : at.kernel.loops)
            deepest = std::max(deepest, loop.depth);
        for (const source::KernelLoop& loop : at.kernel.loops)
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
            offers.add(unroll_loop(at.source, at.context.kernel, loop->line, factor),
                       {"unroll " + where + " by " + std::to_string(factor),
                        cited == "metrics" ? "an innermost loop: unrolling cuts its branch and "
                                             "index instructions and lets loads overlap"
                                           : "the loop holds dominant stall " + cited +
                                                 ": unrolled, independent loads overlap",
                        {cited},
                        {{"instructions_executed", -1}}});
        }
    }
}

// Loop rewrites on every loop where their precondition holds, citing the dominant stall the loop
// holds when there is one (else the diagnosis).
void offer_loop_rewrites(const NodeText& at, Offers& offers) {
    const std::string& kernel = at.context.kernel;
    for (const source::KernelLoop& loop : at.kernel.loops) {
        const std::vector<std::string> cited =
            at.cited([&](int line) { return loop_holding(at.kernel, line) == &loop; });
        const std::string where = "line " + std::to_string(loop.line);
        for (const int width : {4, 2}) {
            const std::string vector = width == 4 ? "float4" : "float2";
            offers.add(
                attempt([&] { return vectorize_loads(at.source, kernel, loop.line, width); }),
                {"vectorize_loads " + where + " " + vector,
                 "the loop reads float streams one element an iteration: one " + vector +
                     " load every " + std::to_string(width) +
                     " iterations where aligned cuts load instructions and the L1 "
                     "wavefronts each line costs",
                 cited,
                 {{"instructions_executed", -1}, {"l1tex_sectors", -1}}});
        }
        offers.add(attempt([&] { return hoist_invariant_loads(at.source, kernel, loop.line); }),
                   {"hoist_invariant_loads " + where,
                    "the loop stores through a pointer, so without proof of no aliasing the "
                    "compiler reloads its invariant loads every iteration: loaded once before it",
                    cited,
                    {{"instructions_executed", -1}, {"l1tex_sectors", -1}}});
        offers.add(attempt([&] { return accumulate_in_register(at.source, kernel, loop.line); }),
                   {"accumulate_in_register " + where,
                    "the loop reads and writes one global element every iteration: accumulated "
                    "in a register and stored once after the loop",
                    cited,
                    {{"instructions_executed", -1}, {"l1tex_sectors", -1}, {"l2_sectors", -1}}});
    }
}

// Launch bounds at the node's block size, where registers limit how many warps fit.
void offer_launch_bounds(const NodeText& at, Offers& offers) {
    const search::NodeInfo& node = at.node;
    if (at.kernel.has_launch_bounds || !node.metrics || !at.context.block_threads) return;
    const auto registers = node.metrics->find("registers_per_thread");
    const auto threads = at.context.block_threads(node.candidate->parameters);
    if (registers == node.metrics->end() || !threads || *threads <= 0 || *threads > 1024 ||
        registers->second <= 32)
        return;
    const int block = static_cast<int>(*threads);
    // Enough blocks for every warp slot of an SM (2048 threads), at least 2.
    const int full = std::max(2, 2048 / block);
    offers.add(add_launch_bounds(at.source, at.context.kernel, block, 0),
               {"launch_bounds(" + std::to_string(block) + ")",
                "the block size is known: the compiler budgets registers for exactly " +
                    std::to_string(block) + " threads",
                {"metrics"},
                {{"registers_per_thread", -1}}});
    offers.add(add_launch_bounds(at.source, at.context.kernel, block, full),
               {"launch_bounds(" + std::to_string(block) + ", " + std::to_string(full) + ")",
                "the kernel uses " + std::to_string(static_cast<int>(registers->second)) +
                    " registers a thread: asking for " + std::to_string(full) +
                    " resident blocks caps them so more warps hide latency",
                node.bottleneck.empty() ? std::vector<std::string>{"metrics"}
                                        : std::vector<std::string>{"metrics", "roofline"},
                {{"registers_per_thread", -1}, {"achieved_occupancy_pct", +1}}});
}

}  // namespace

std::vector<search::Proposal> RewriteMoves::propose(const search::NodeInfo& node) {
    const std::string source = context_.text_of(*node.candidate);
    source::KernelText kernel;
    try {
        kernel = source::find_kernel(source, context_.kernel);
    } catch (const source::RewriteError&) {
        return {};  // a text the editor cannot read is not rewritten
    }
    const NodeText at{context_, node, source, kernel, context_.evidence_of(*node.candidate)};
    Offers offers(context_, node, name());
    offer_pointer_rewrites(at, offers);
    offer_structural_rewrites(at, offers);
    offer_coarsening(at, offers);
    offer_register_blocks(at, offers);
    offer_unrolls(at, offers);
    offer_loop_rewrites(at, offers);
    offer_launch_bounds(at, offers);
    return offers.take();
}

}  // namespace optiml::propose
