// The rule proposers and the rule judge on small kernels: each offers an edge only where its
// precondition holds, cites the evidence it answers, and the judge ranks and checks them.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "driver/propose/node_metrics.h"
#include "driver/propose/option_moves.h"
#include "driver/propose/parameter_moves.h"
#include "driver/propose/rewrite_moves.h"
#include "driver/propose/rule_judge.h"

namespace optiml::propose {
namespace {

const char* kStencil = R"(#ifndef BLOCK
#define BLOCK 256
#endif
__device__ float helper(float* p) { return p[0]; }
__global__ void smooth(int n, const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
    for (int k = -4; k <= 4; ++k) {
        int j = min(max(i + k, 0), n - 1);
        sum += in[j];
    }
    out[i] = expf(sum / 9.0f);
}
)";

const char* kCopy = R"(__global__ void copy(int n, float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
)";

// A context over texts held in a map, the way the pipeline holds derived sources.
struct Texts {
    std::map<std::string, std::string> by_id;
    std::map<search::Candidate, analysis::EvidenceReport> evidence;

    KernelContext context(const std::string& kernel, const std::string& original) {
        by_id[""] = original;
        KernelContext c;
        c.kernel = kernel;
        c.read_only = {"in"};
        c.text_of = [this](const search::Candidate& cand) { return by_id.at(cand.source_id); };
        c.evidence_of = [this](const search::Candidate& cand) -> const analysis::EvidenceReport* {
            const auto found = evidence.find(cand);
            return found == evidence.end() ? nullptr : &found->second;
        };
        c.block_threads = [](const search::Config& config) -> std::optional<long> {
            return config.at("BLOCK");
        };
        c.register_source = [this](const std::string& text) {
            const std::string id = "id" + std::to_string(by_id.size());
            for (const auto& [existing, held] : by_id)
                if (held == text) return existing;
            by_id[id] = text;
            return id;
        };
        return c;
    }
};

search::NodeInfo node(const search::Candidate& candidate, const search::Metrics* metrics,
                      std::string bottleneck) {
    search::NodeInfo info;
    info.candidate = &candidate;
    info.metrics = metrics;
    info.bottleneck = std::move(bottleneck);
    return info;
}

const search::Proposal* find(const std::vector<search::Proposal>& proposals,
                             const std::string& prefix) {
    for (const auto& p : proposals)
        if (p.transformation.rfind(prefix, 0) == 0) return &p;
    return nullptr;
}

TEST(ParameterMoves, OffersNeighboursThatHoldTheConstraintsAndKeepTheNodesSource) {
    search::Space space;
    space.names = {"BLOCK", "ITEMS"};
    space.values = {{64, 128, 256, 512}, {1, 2, 4}};
    space.is_valid = [](const search::Config& c) { return c.at("BLOCK") * c.at("ITEMS") <= 512; };
    ParameterMoves moves(space);
    search::Candidate from({{"BLOCK", 256}, {"ITEMS", 2}}, "abc", {"unroll line 3 by 2"}, {"-x"});
    const auto proposals = moves.propose(node(from, nullptr, ""));
    std::vector<search::Config> configs;
    for (const auto& p : proposals) {
        configs.push_back(p.candidate.parameters);
        EXPECT_EQ(p.candidate.source_id, "abc");
        EXPECT_EQ(p.candidate.options, std::vector<std::string>{"-x"});
        EXPECT_EQ(p.kind, "parameter");
    }
    // 512x2 breaks the constraint; 256x4 too; the first value has no lower neighbour.
    const std::vector<search::Config> expected = {{{"BLOCK", 128}, {"ITEMS", 2}},
                                                  {{"BLOCK", 256}, {"ITEMS", 1}}};
    EXPECT_EQ(configs, expected);
    // Around the original kernel the parameter search already walked: nothing.
    EXPECT_TRUE(moves.propose(node(search::Candidate(from.parameters), nullptr, "")).empty());
    search::Candidate with_option(from.parameters);
    with_option.options = {"--use_fast_math"};
    EXPECT_FALSE(moves.propose(node(with_option, nullptr, "")).empty());
}

TEST(OptionMoves, FastMathOnlyWhereTheKernelDoesMathAndRegisterCapsBelowItsRegisters) {
    Texts texts;
    OptionMoves stencil(texts.context("smooth", kStencil));
    const search::Metrics metrics = {{"registers_per_thread", 80}};
    search::Candidate root({{"BLOCK", 256}});
    const auto offered = stencil.propose(node(root, &metrics, "compute"));
    ASSERT_NE(find(offered, "--use_fast_math"), nullptr);
    EXPECT_EQ(find(offered, "--use_fast_math")->evidence, std::vector<std::string>{"roofline"});
    EXPECT_NE(find(offered, "--prec-div=false"), nullptr);
    EXPECT_NE(find(offered, "--maxrregcount=64"), nullptr);
    EXPECT_NE(find(offered, "--maxrregcount=32"), nullptr);
    EXPECT_EQ(find(offered, "--maxrregcount=96"), nullptr);         // above what it uses
    EXPECT_EQ(find(offered, "--ptxas-options=-dlcm=cg"), nullptr);  // not memory-bound

    Texts other;
    OptionMoves copy(other.context("copy", kCopy));
    const auto plain = copy.propose(node(root, nullptr, "memory"));
    EXPECT_EQ(find(plain, "--use_fast_math"), nullptr);
    EXPECT_EQ(find(plain, "--maxrregcount"), nullptr);  // registers unknown
    EXPECT_NE(find(plain, "--ptxas-options=-dlcm=cg"), nullptr);
}

TEST(OptionMoves, AnOptionAlreadySetIsNotOfferedAgainNorAnotherValueOfIt) {
    Texts texts;
    OptionMoves moves(texts.context("smooth", kStencil));
    const search::Metrics metrics = {{"registers_per_thread", 80}};
    search::Candidate capped({{"BLOCK", 256}}, "", {}, {"--maxrregcount=64", "--use_fast_math"});
    const auto offered = moves.propose(node(capped, &metrics, "latency"));
    EXPECT_EQ(find(offered, "--maxrregcount"), nullptr);
    EXPECT_EQ(find(offered, "--use_fast_math"), nullptr);
    EXPECT_EQ(find(offered, "--prec-div"), nullptr);  // fast math holds it already
    search::Candidate root({{"BLOCK", 256}});
    const auto child = moves.propose(node(root, &metrics, ""));
    const auto* cap = find(child, "--maxrregcount=64");
    ASSERT_NE(cap, nullptr);
    EXPECT_EQ(cap->candidate.options, std::vector<std::string>{"--maxrregcount=64"});
    EXPECT_TRUE(cap->candidate.is_original_source());
}

TEST(OptionMoves, HostCodeThatDividesOrCallsMathAsksForNoFastMath) {
    // main() divides and calls sqrt (timings): the options would not touch it.
    const std::string program = std::string(kCopy) +
                                "int main() {\n    double ms = 3.0 / 2.0;\n    return "
                                "static_cast<int>(sqrt(ms));\n}\n";
    Texts texts;
    OptionMoves moves(texts.context("copy", program));
    const auto offered = moves.propose(node(search::Candidate({{"BLOCK", 256}}), nullptr, ""));
    EXPECT_EQ(find(offered, "--prec-div"), nullptr);
    EXPECT_EQ(find(offered, "--use_fast_math"), nullptr);
    EXPECT_EQ(find(offered, "--ftz"), nullptr);
}

TEST(RewriteMoves, ALoopWithItsOwnUnrollPragmaKeepsIt) {
    const std::string tiled = R"(__global__ void dot(const float* a, const float* b, float* c) {
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < 16; ++k) sum += a[k] * b[k];
    for (int k = 0; k < 8; ++k) c[k] = sum;
}
)";
    Texts texts;
    RewriteMoves moves(texts.context("dot", tiled));
    const auto offered = moves.propose(node(search::Candidate({{"BLOCK", 256}}), nullptr, ""));
    EXPECT_EQ(find(offered, "unroll line 4"), nullptr);  // the author's full unroll stays
    EXPECT_NE(find(offered, "unroll line 5 by 2"), nullptr);
}

TEST(RewriteMoves, EachRewriteIsADerivedSourceWithItsTransformationNamed) {
    Texts texts;
    RewriteMoves moves(texts.context("smooth", kStencil));
    search::Candidate root({{"BLOCK", 256}});
    const search::Metrics metrics = {{"registers_per_thread", 40}};
    const auto offered = moves.propose(node(root, &metrics, "memory"));
    const auto* restrict_edge = find(offered, "restrict_pointers");
    ASSERT_NE(restrict_edge, nullptr);
    EXPECT_EQ(restrict_edge->evidence, std::vector<std::string>{"roofline"});
    EXPECT_FALSE(restrict_edge->candidate.is_original_source());
    EXPECT_EQ(restrict_edge->candidate.transformations,
              std::vector<std::string>{"restrict_pointers"});
    EXPECT_NE(texts.by_id.at(restrict_edge->candidate.source_id).find("__restrict__"),
              std::string::npos);
    EXPECT_NE(find(offered, "load_through_ldg"), nullptr);
    // Unprofiled, the innermost loop (line 9) is unrolled, citing the metrics only.
    const auto* unroll = find(offered, "unroll line 9 by 4");
    ASSERT_NE(unroll, nullptr);
    EXPECT_EQ(unroll->evidence, std::vector<std::string>{"metrics"});
    EXPECT_NE(find(offered, "launch_bounds(256)"), nullptr);
    EXPECT_NE(find(offered, "launch_bounds(256, 8)"), nullptr);
    for (const auto& p : offered) EXPECT_EQ(p.kind, "rewrite");

    // From the rewritten node, the same rewrite has nothing left to do.
    const auto again = moves.propose(node(restrict_edge->candidate, &metrics, "memory"));
    EXPECT_EQ(find(again, "restrict_pointers"), nullptr);
    const auto* chained = find(again, "unroll line 9 by 2");
    ASSERT_NE(chained, nullptr);
    EXPECT_EQ(chained->candidate.transformations,
              (std::vector<std::string>{"restrict_pointers", "unroll line 9 by 2"}));
}

TEST(RewriteMoves, UnrollsTheLoopHoldingADominantStallAndCitesIt) {
    Texts texts;
    RewriteMoves moves(texts.context("smooth", kStencil));
    search::Candidate root({{"BLOCK", 256}});
    analysis::EvidenceReport report;
    report.stalls = analysis::StallSummary{};
    report.stalls->dominant.push_back(
        {"stall-1", "smooth.cu", 11, "long_scoreboard", 900, 0.6, ""});
    texts.evidence[root] = report;
    const auto offered = moves.propose(node(root, nullptr, ""));
    const auto* unroll = find(offered, "unroll line 9 by 2");
    ASSERT_NE(unroll, nullptr);
    EXPECT_EQ(unroll->evidence, std::vector<std::string>{"stall-1"});
    EXPECT_EQ(find(offered, "launch_bounds"), nullptr);  // registers unknown
}

TEST(RewriteMoves, PrivatizedAtomicsAreStructuralCiteTheStallOnTheAtomicAndRankFirst) {
    const std::string histogram =
        R"(__global__ void histogram(int n, const unsigned char* in, unsigned int* bins) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[in[i]], 1u);
}
)";
    Texts texts;
    KernelContext context = texts.context("histogram", histogram);
    context.pointer_counts = {{"in", 1 << 20}, {"bins", 256}};
    RewriteMoves moves(context);
    search::Candidate root({{"BLOCK", 256}});
    analysis::EvidenceReport report;
    report.stalls = analysis::StallSummary{};
    report.stalls->dominant.push_back(
        {"stall-1", "histogram.cu", 3, "long_scoreboard", 999, 0.99, ""});
    texts.evidence[root] = report;
    const auto offered = moves.propose(node(root, nullptr, "latency"));
    const auto* privatized = find(offered, "privatize_atomics");
    ASSERT_NE(privatized, nullptr);
    EXPECT_TRUE(privatized->structural);
    EXPECT_EQ(privatized->evidence, std::vector<std::string>{"stall-1"});
    const auto* unroll = find(offered, "unroll line 2 by 4");
    ASSERT_NE(unroll, nullptr);
    EXPECT_FALSE(unroll->structural);
    RuleJudge judge;
    const auto latency = node(root, nullptr, "latency");
    for (const auto& p : offered) {
        if (&p == privatized) continue;
        EXPECT_GT(judge.score(latency, *privatized), judge.score(latency, p)) << p.transformation;
    }
}

// One item a thread: the privatized copy is also offered over 64 items a thread, its merge
// amortized (coarsened first; a privatized body is not coarsened after).
TEST(RewriteMoves, AOneItemHistogramIsAlsoPrivatizedOverSixtyFourItemsAThread) {
    Texts texts;
    KernelContext context = texts.context(
        "histogram",
        R"(__global__ void histogram(int n, const unsigned char* in, unsigned int* bins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i]], 1u);
}
)");
    context.pointer_counts = {{"in", 1 << 20}, {"bins", 256}};
    context.grid = {"ceil_div(n, BLOCK)", "1", "1"};
    RewriteMoves moves(context);
    const auto offered =
        moves.propose(node(search::Candidate({{"BLOCK", 256}}), nullptr, "latency"));
    const auto* both = find(offered, "privatize_atomics over 64 items a thread");
    ASSERT_NE(both, nullptr);
    EXPECT_TRUE(both->structural);
    EXPECT_EQ(both->candidate.grid,
              (std::vector<std::string>{"ceil_div(ceil_div(n, BLOCK), 64)", "1", "1"}));
    const std::string& text = texts.by_id.at(both->candidate.source_id);
    EXPECT_NE(text.find("optiml_item < 64"), std::string::npos) << text;
    EXPECT_NE(text.find("optiml_private_bins"), std::string::npos) << text;
    ASSERT_NE(find(offered, "privatize_atomics"), nullptr);  // and alone, at one item a thread
    // Its bytes four at a time: alone (a quarter of the grid) and under the privatized copy.
    const auto* quads = find(offered, "vectorize_narrow_loads");
    ASSERT_NE(quads, nullptr);
    EXPECT_EQ(quads->candidate.grid,
              (std::vector<std::string>{"ceil_div(ceil_div(n, BLOCK), 4)", "1", "1"}));
    const auto* all = find(offered, "privatize_atomics over 256 items a thread, 4 a load");
    ASSERT_NE(all, nullptr);
    EXPECT_EQ(all->candidate.grid,
              (std::vector<std::string>{"ceil_div(ceil_div(n, BLOCK), 256)", "1", "1"}));
    const std::string& loaded = texts.by_id.at(all->candidate.source_id);
    EXPECT_NE(loaded.find("const uchar4 optiml_in_vector"), std::string::npos) << loaded;
    EXPECT_NE(loaded.find("optiml_item < 64"), std::string::npos) << loaded;
    EXPECT_NE(loaded.find("optiml_private_bins"), std::string::npos) << loaded;
}

// A product written a thread an element: register blocks of 2 x 2 and 4 x 4, the grid's x and y
// divided by their sides, each also through shared tiles, and the tiles alone.
TEST(RewriteMoves, AProductWrittenAThreadAnElementIsRegisterBlocked) {
    Texts texts;
    KernelContext context = texts.context(
        "product", R"(__global__ void product(const float* a, const float* b, float* c, int n) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
        c[row * n + col] = sum;
    }
}
)");
    context.grid = {"ceil_div(n, bx)", "ceil_div(n, by)", "1"};
    RewriteMoves moves(context);
    const auto offered =
        moves.propose(node(search::Candidate({{"BLOCK", 256}}), nullptr, "memory"));
    for (const std::string side : {"2", "4"}) {
        const auto* blocked = find(offered, "register_block " + side + "x" + side);
        ASSERT_NE(blocked, nullptr) << side;
        EXPECT_TRUE(blocked->structural);
        EXPECT_EQ(blocked->candidate.grid,
                  (std::vector<std::string>{"ceil_div(ceil_div(n, bx), " + side + ")",
                                            "ceil_div(ceil_div(n, by), " + side + ")", "1"}));
        const std::string& text = texts.by_id.at(blocked->candidate.source_id);
        EXPECT_NE(
            text.find("float sum[" + std::to_string(std::stoi(side) * std::stoi(side)) + "];"),
            std::string::npos)
            << text;
        // The same through shared tiles of a and b.
        const auto* staged =
            find(offered, "shared_tiles 16 deep, " + side + "x" + side + " a thread");
        ASSERT_NE(staged, nullptr) << side;
        EXPECT_EQ(staged->candidate.grid, blocked->candidate.grid);
        EXPECT_NE(texts.by_id.at(staged->candidate.source_id).find("__syncthreads_and"),
                  std::string::npos);
    }
    // The tiles alone, at the node's own launch.
    const auto* tiles = find(offered, "shared_tiles 16 deep");
    ASSERT_NE(tiles, nullptr);
    EXPECT_TRUE(tiles->structural);
    EXPECT_TRUE(tiles->candidate.grid.empty());
    EXPECT_NE(texts.by_id.at(tiles->candidate.source_id).find("optiml_tile_2[(k - optiml_slab)"),
              std::string::npos);
}

// A stencil written a thread a point: its input through a tile with a halo, at its own launch.
TEST(RewriteMoves, AStencilIsStagedThroughAHaloTileAtItsOwnLaunch) {
    Texts texts;
    KernelContext context =
        texts.context("blur", R"(__global__ void blur(const float* in, float* out, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && y > 0 && x < n - 1 && y < n - 1) {
        out[y * n + x] = in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x];
    }
}
)");
    context.grid = {"ceil_div(n, bx)", "ceil_div(n, by)", "1"};
    RewriteMoves moves(context);
    const auto offered =
        moves.propose(node(search::Candidate({{"BLOCK", 256}}), nullptr, "memory"));
    const auto* halo = find(offered, "stage_halo");
    ASSERT_NE(halo, nullptr);
    EXPECT_TRUE(halo->structural);
    EXPECT_TRUE(halo->candidate.grid.empty());
    EXPECT_NE(texts.by_id.at(halo->candidate.source_id).find("(blockDim.x + 2) * (blockDim.y + 1)"),
              std::string::npos);
}

TEST(RewriteMoves, ANaiveTransposeIsStagedThroughASharedTileAtItsOwnLaunch) {
    Texts texts;
    KernelContext context = texts.context(
        "transpose", R"(__global__ void transpose(int rows, int cols, const float* in, float* out) {
    int x = blockIdx.x * block_size_x + threadIdx.x;
    int y = blockIdx.y * block_size_y + threadIdx.y;
    if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}
)");
    context.grid = {"ceil_div(cols, block_size_x)", "ceil_div(rows, block_size_y)", "1"};
    RewriteMoves moves(context);
    const auto offered =
        moves.propose(node(search::Candidate({{"BLOCK", 256}}), nullptr, "memory"));
    const auto* tiled = find(offered, "transpose_through_shared");
    ASSERT_NE(tiled, nullptr);
    EXPECT_TRUE(tiled->structural);
    EXPECT_TRUE(tiled->candidate.grid.empty()) << "the launch is the node's";
    EXPECT_EQ(tiled->expected, (std::vector<search::Effect>{{"l2_sectors", -1}}));
}

TEST(RewriteMoves, AWarpPerRowIsStructuralAndMultipliesTheGridsX) {
    const std::string row_sums =
        R"(__global__ void row_sums(int rows, int cols, const float* in, float* out) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    float s = 0.0f;
    for (int j = 0; j < cols; ++j) s += in[row * cols + j];
    out[row] = s;
}
)";
    Texts texts;
    KernelContext context = texts.context("row_sums", row_sums);
    context.grid = {"ceil_div(rows, BLOCK)", "1", "1"};
    RewriteMoves moves(context);
    const auto warp_per_row = [&](const search::Candidate& from) {
        const auto offered = moves.propose(node(from, nullptr, "memory"));
        const auto* p = find(offered, "warp_per_row");
        return p ? std::optional<search::Proposal>(*p) : std::nullopt;
    };
    const auto offered = warp_per_row(search::Candidate({{"BLOCK", 128}}));
    ASSERT_TRUE(offered);
    EXPECT_TRUE(offered->structural);
    EXPECT_EQ(offered->candidate.grid,
              (std::vector<std::string>{"(ceil_div(rows, BLOCK)) * 32", "1", "1"}));
    EXPECT_EQ(offered->evidence, std::vector<std::string>{"roofline"});
    // A child keeps its grid through later moves, and a chain builds on the node's own grid.
    search::Candidate chained = offered->candidate;
    chained.grid[0] = "(ceil_div(rows, BLOCK)) * 2";
    texts.by_id[chained.source_id] = row_sums;  // as if another rewrite had made it
    const auto again = warp_per_row(chained);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->candidate.grid[0], "((ceil_div(rows, BLOCK)) * 2) * 32");
    // Blocks that are not whole warps would split a warp over two rows.
    EXPECT_FALSE(warp_per_row(search::Candidate({{"BLOCK", 48}})));
}

TEST(RewriteMoves, CoarseningByTwoToAHundredAndTwentyEightDividesTheGridsX) {
    Texts texts;
    KernelContext context =
        texts.context("copy", R"(__global__ void copy(int n, float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
)");
    context.grid = {"ceil_div(n, BLOCK)", "1", "1"};
    RewriteMoves moves(context);
    const auto offered =
        moves.propose(node(search::Candidate({{"BLOCK", 256}}), nullptr, "memory"));
    for (const int factor : {2, 8, 32, 128}) {
        const auto* p = find(offered, "coarsen_items by " + std::to_string(factor));
        ASSERT_NE(p, nullptr) << factor;
        EXPECT_TRUE(p->structural);
        EXPECT_EQ(p->candidate.grid,
                  (std::vector<std::string>{
                      "ceil_div(ceil_div(n, BLOCK), " + std::to_string(factor) + ")", "1", "1"}));
    }
    // Without the spec's grid the proposer cannot say how to launch it: not offered.
    context.grid.clear();
    RewriteMoves blind(context);
    EXPECT_EQ(find(blind.propose(node(search::Candidate({{"BLOCK", 256}}), nullptr, "memory")),
                   "coarsen_items by 2"),
              nullptr);
}

const char* kRowSums =
    R"(__global__ void row_sums(int n, const float* in, const float* w, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = 0; j < n; ++j) out[i] += in[i * n + j] * w[0];
}
)";

TEST(RewriteMoves, LoopRewritesWhereTheirPreconditionsHoldAndTheyChain) {
    Texts texts;
    RewriteMoves moves(texts.context("row_sums", kRowSums));
    search::Candidate root({{"BLOCK", 256}});
    const auto offered = moves.propose(node(root, nullptr, "memory"));
    const auto* accumulate = find(offered, "accumulate_in_register line 3");
    ASSERT_NE(accumulate, nullptr);
    EXPECT_EQ(accumulate->evidence, std::vector<std::string>{"roofline"});
    const std::vector<search::Effect> fewer_accesses = {
        {"instructions_executed", -1}, {"l1tex_sectors", -1}, {"l2_sectors", -1}};
    EXPECT_EQ(accumulate->expected, fewer_accesses);
    EXPECT_NE(find(offered, "hoist_invariant_loads line 3"), nullptr);  // w[0], past a store
    EXPECT_EQ(find(offered, "vectorize_loads"), nullptr);               // the loop stores
    // The stencil's loop (k <= 4, loads at another index) takes none of them.
    Texts other;
    RewriteMoves stencil(other.context("smooth", kStencil));
    const auto none = stencil.propose(node(root, nullptr, "memory"));
    for (const char* name : {"vectorize_loads", "hoist_invariant_loads", "accumulate_in_register"})
        EXPECT_EQ(find(none, name), nullptr) << name;

    // Accumulated in a register, the loop (now on line 5) stores nothing: float4 loads apply,
    // citing the stall on its line, and the judge ranks them for a memory-bound kernel.
    analysis::EvidenceReport report;
    report.stalls = analysis::StallSummary{};
    report.stalls->dominant.push_back({"stall-2", "row_sums.cu", 5, "long_scoreboard", 9, 0.7, ""});
    texts.evidence[accumulate->candidate] = report;
    const auto next = moves.propose(node(accumulate->candidate, nullptr, "memory"));
    const auto* vectorize = find(next, "vectorize_loads line 5 float4");
    ASSERT_NE(vectorize, nullptr);
    EXPECT_NE(find(next, "vectorize_loads line 5 float2"), nullptr);
    EXPECT_EQ(vectorize->evidence, std::vector<std::string>{"stall-2"});
    EXPECT_EQ(vectorize->candidate.transformations,
              (std::vector<std::string>{"accumulate_in_register line 3",
                                        "vectorize_loads line 5 float4"}));
    EXPECT_NE(texts.by_id.at(vectorize->candidate.source_id).find("const float4 in_vec"),
              std::string::npos);
    RuleJudge judge;
    const auto* restrict_edge = find(next, "restrict_pointers");
    ASSERT_NE(restrict_edge, nullptr);
    const auto memory = node(accumulate->candidate, nullptr, "memory");
    EXPECT_GT(judge.score(memory, *vectorize), judge.score(memory, *restrict_edge));
    // After measurement: fewer sectors and instructions held.
    const search::Metrics before = {{"instructions_executed", 1e8}, {"l1tex_sectors", 4e8}};
    const search::Metrics after = {{"instructions_executed", 6e7}, {"l1tex_sectors", 1.2e8}};
    auto measured = memory;
    measured.metrics = &before;
    const search::Consistency checked = judge.check(measured, *vectorize, after);
    EXPECT_EQ(checked.held, 2);
    EXPECT_EQ(checked.contradicted, 0);
}

TEST(RuleJudge, FavoursWhatTheDiagnosisWantsAndAStallCitation) {
    RuleJudge judge;
    search::Candidate root({{"BLOCK", 256}});
    search::Proposal fewer_bytes, fewer_instructions, stall;
    fewer_bytes.kind = fewer_instructions.kind = stall.kind = "rewrite";
    fewer_bytes.expected = {{"dram_bytes", -1}};
    fewer_instructions.expected = {{"instructions_executed", -1}};
    stall.expected = {{"instructions_executed", -1}};
    stall.evidence = {"stall-1"};
    const auto memory = node(root, nullptr, "memory");
    const auto compute = node(root, nullptr, "compute");
    EXPECT_GT(judge.score(memory, fewer_bytes), judge.score(memory, fewer_instructions));
    EXPECT_GT(judge.score(compute, fewer_instructions), judge.score(compute, fewer_bytes));
    EXPECT_GT(judge.score(memory, stall), judge.score(memory, fewer_instructions));
    for (const auto* p : {&fewer_bytes, &fewer_instructions, &stall}) {
        EXPECT_GE(judge.score(memory, *p), 0.0);
        EXPECT_LE(judge.score(memory, *p), 1.0);
    }
    // More occupancy is worth little where warps already fill the SM.
    search::Proposal occupancy;
    occupancy.kind = "options";
    occupancy.expected = {{"achieved_occupancy_pct", +1}};
    const search::Metrics full = {{"achieved_occupancy_pct", 92}};
    const search::Metrics low = {{"achieved_occupancy_pct", 30}};
    EXPECT_LT(judge.score(node(root, &full, "latency"), occupancy),
              judge.score(node(root, &low, "latency"), occupancy));
}

// Issue 27: on a latency-bound histogram whose stalls sit on a global atomicAdd, privatizing the
// atomics scored 0.50 and an unroll of the loop around them 0.80, so the tree tried the unroll
// first. The rewrite of the stalled statement now ranks first, and the dominant stall counts more.
TEST(RuleJudge, RanksTheStructuralRewriteOfTheStalledStatementAboveAnUnrollAroundIt) {
    RuleJudge judge;
    search::Candidate root({{"BLOCK", 256}});
    search::Proposal privatize, unroll, unroll_minor, parameter;
    privatize.kind = unroll.kind = unroll_minor.kind = "rewrite";
    privatize.structural = true;
    privatize.evidence = {"stall-1"};
    privatize.expected = {{"l2_sectors", -1}};
    unroll.evidence = {"stall-1"};
    unroll.expected = {{"instructions_executed", -1}};
    unroll_minor.evidence = {"stall-3"};
    unroll_minor.expected = {{"instructions_executed", -1}};
    parameter.kind = "parameter";
    const auto latency = node(root, nullptr, "latency");
    EXPECT_GT(judge.score(latency, privatize), judge.score(latency, unroll));
    EXPECT_GT(judge.score(latency, unroll), judge.score(latency, unroll_minor));
    EXPECT_GT(judge.score(latency, privatize), judge.score(latency, parameter));
    EXPECT_LE(judge.score(latency, privatize), 1.0);
    // Structural without a stall to act on (no PC samples): no more than its diagnosis earns.
    search::Proposal blind = privatize;
    blind.evidence = {"metrics"};
    search::Proposal plain = blind;
    plain.structural = false;
    EXPECT_DOUBLE_EQ(judge.score(latency, blind), judge.score(latency, plain));
}

TEST(RuleJudge, ChecksEachExpectedMetricAgainstTheParentBeyondNoise) {
    RuleJudge judge;
    search::Candidate root({{"BLOCK", 256}});
    const search::Metrics parent = {{"instructions_executed", 1000}, {"registers_per_thread", 64}};
    const auto info = node(root, &parent, "compute");
    search::Proposal p;
    p.expected = {{"instructions_executed", -1}, {"registers_per_thread", -1}, {"l2_sectors", -1}};
    const auto moved =
        judge.check(info, p, {{"instructions_executed", 800}, {"registers_per_thread", 72}});
    EXPECT_EQ(moved.held, 1);
    EXPECT_EQ(moved.contradicted, 1);
    EXPECT_EQ(moved.unmeasured, 1);
    EXPECT_FALSE(moved.consistent());
    const auto noise =
        judge.check(info, p, {{"instructions_executed", 990}, {"registers_per_thread", 63}});
    EXPECT_EQ(noise.held, 0);
    EXPECT_EQ(noise.contradicted, 0);
    search::Proposal single;
    single.expected = {{"instructions_executed", -1}};
    EXPECT_TRUE(judge.check(info, single, {{"instructions_executed", 500}}).consistent());
}

TEST(NodeMetrics, FlattensMeasuredCountersOnlyAndNamesTheBottleneck) {
    analysis::KernelCounters counters;
    counters.duration_s = 1e-3;
    counters.dram_bytes = 4e9;
    counters.flops["fp32"] = 2e9;
    counters.registers_per_thread = 40;
    counters.spill_store_bytes = 8;
    counters.spill_load_bytes = 4;
    const search::Metrics m = node_metrics(counters);
    EXPECT_EQ(m.at("dram_bytes"), 4e9);
    EXPECT_EQ(m.at("flops_fp32"), 2e9);
    EXPECT_EQ(m.at("registers_per_thread"), 40);
    EXPECT_EQ(m.at("spill_bytes"), 12);
    EXPECT_FALSE(m.contains("instructions_executed"));
    analysis::EvidenceReport report;
    EXPECT_EQ(bottleneck(report), "");
    report.roofline = analysis::RooflineVerdict{};
    report.roofline->bound = analysis::Bound::Memory;
    EXPECT_EQ(bottleneck(report), "memory");
}

TEST(RuleJudge, LearnsWhatATransformationDidElsewhereInTheTree) {
    RuleJudge judge;
    search::Candidate root({{"BLOCK", 256}});
    search::Outcome parent_time;
    parent_time.ok = true;
    parent_time.median_ms = 1.0;
    search::NodeInfo parent = node(root, nullptr, "memory");
    parent.outcome = &parent_time;
    search::Proposal slower, faster, broken;
    slower.kind = faster.kind = broken.kind = "rewrite";
    slower.transformation = "unroll line 9 by 8";
    faster.transformation = "restrict_pointers";
    broken.transformation = "--use_fast_math";
    const double before = judge.score(parent, slower);
    ASSERT_EQ(before, judge.score(parent, faster));
    search::Outcome outcome;
    outcome.ok = true;
    outcome.median_ms = 1.1;
    judge.learn(parent, slower, outcome);
    outcome.median_ms = 0.9;
    judge.learn(parent, faster, outcome);
    judge.learn(parent, broken, search::Outcome{});
    EXPECT_LT(judge.score(parent, slower), before);
    EXPECT_GT(judge.score(parent, faster), before);
    EXPECT_LT(judge.score(parent, broken), before);
    // A parameter move learns the same way.
    search::Proposal move;
    move.kind = "parameter";
    move.transformation = "BLOCK 256 -> 128";
    const double unseen = judge.score(parent, move);
    outcome.median_ms = 1.2;
    judge.learn(parent, move, outcome);
    EXPECT_LT(judge.score(parent, move), unseen);
}

TEST(OptionMoves, MathInADeviceFunctionTheKernelCallsCountsForFastMath) {
    const char* kForce = R"(__device__ float inverse_distance(float r2) { return 1.0f / sqrtf(r2); }
__global__ void force(int n, const float* r2, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = inverse_distance(r2[i]);
}
)";
    Texts texts;
    OptionMoves moves(texts.context("force", kForce));
    search::Candidate root({{"BLOCK", 256}});
    const auto offered = moves.propose(node(root, nullptr, "latency"));
    EXPECT_NE(find(offered, "--use_fast_math"), nullptr);
    EXPECT_NE(find(offered, "--prec-div=false"), nullptr);
}

}  // namespace
}  // namespace optiml::propose
