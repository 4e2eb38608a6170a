#include "driver/tune/detail/transform_tuning.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "driver/compile/compile_request.h"
#include "driver/llm/llm_judge.h"
#include "driver/llm/llm_proposer.h"
#include "driver/llm/llm_proposer_record.h"
#include "driver/profile/device_ceilings.h"
#include "driver/profile/metric_catalog.h"
#include "driver/profile/profile_client.h"
#include "driver/profile/variant_evidence.h"
#include "driver/propose/node_metrics.h"
#include "driver/propose/option_moves.h"
#include "driver/propose/parameter_moves.h"
#include "driver/propose/rewrite_moves.h"
#include "driver/propose/rule_judge.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::tune {
namespace {

constexpr auto kNodeProfileTimeout = std::chrono::minutes(2);

// "MatrixMulCUDA<32>" or "ns::saxpy" as a name expression; the function's own name in the text.
std::string function_name(const std::string& name_expression) {
    std::string name = name_expression.substr(0, name_expression.find('<'));
    if (const auto colons = name.rfind("::"); colons != std::string::npos)
        name = name.substr(colons + 2);
    return name;
}

// The kernel's parameters the spec marks read-only pointers (arguments match by position).
std::set<std::string> read_only_parameters(const spec::Spec& spec,
                                           const source::KernelText& kernel) {
    std::set<std::string> names;
    for (std::size_t i = 0; i < spec.arguments.size() && i < kernel.parameters.size(); ++i)
        if (spec.arguments[i].is_pointer && spec.arguments[i].role == spec::Role::Input)
            names.insert(kernel.parameters[i].name);
    return names;
}

// The element count of each pointer parameter at the spec's problem (by position, as above);
// one whose count cannot be evaluated is left out.
std::map<std::string, long> pointer_counts(const spec::Spec& spec,
                                           const source::KernelText& kernel) {
    std::map<std::string, long> counts;
    const expr::Env env = spec.environment(spec.default_config());
    for (std::size_t i = 0; i < spec.arguments.size() && i < kernel.parameters.size(); ++i) {
        if (!spec.arguments[i].is_pointer) continue;
        try {
            counts[kernel.parameters[i].name] =
                static_cast<long>(spec.arguments[i].count.eval(env));
        } catch (const std::exception&) {
        }
    }
    return counts;
}

// The launch geometry and the problem sizes, for the model's prompt.
std::string launch_line(const spec::Spec& spec) {
    const auto triple = [](const std::array<expr::Expr, 3>& e) {
        return "(" + e[0].text() + ", " + e[1].text() + ", " + e[2].text() + ")";
    };
    std::string line = "block " + triple(spec.launch.block) + ", grid " + triple(spec.launch.grid);
    std::string sizes;
    for (const auto& argument : spec.arguments)
        if (!argument.is_pointer)
            sizes += (sizes.empty() ? "" : ", ") + argument.name + "=" +
                     std::to_string(argument.integer_value);
    if (!sizes.empty()) line += "; timed at " + sizes;
    for (const auto& size : spec.check.extra_sizes) line += "; also verified at " + describe(size);
    return line;
}

// The LLM proposer's compile: the text as a candidate of the pipeline, with its compiler.
llm::KernelCompiler text_compiler(const spec::Spec& spec, int arch, SourceVariants& sources) {
    return [&spec, arch, &sources](const std::string& text, const search::Config& parameters) {
        search::Candidate probe(parameters);
        probe.source_id = sources.add(text);
        const compile::CompileRequest request =
            make_compile_request(spec, probe, sources, arch, compile::Output::Cubin);
        const compile::CompileResult result = compile::compile(request);
        return llm::CompileCheck{result.ok, result.log, request.source_name};
    };
}

}  // namespace

int parameter_evaluations(const search::Budget& whole, std::size_t valid) {
    const int budget = whole.evaluations;
    if (whole.stop_when_converged) return std::max(budget - kFittedTreeEvaluations, 1);
    const int share = static_cast<int>(std::lround(budget * kParameterShare));
    const int small = static_cast<int>(std::min(valid, kSmallSpace));
    return std::clamp(std::max(share, small), 1, std::max(budget, 1));
}

bool transformations_enabled(const search::Budget& budget) {
    const char* env = std::getenv("OPTIML_TRANSFORM");
    return budget.strategy == "auto" && !(env && std::string(env) == "0");
}

// With the tree's own default of 4 in flight, NVRTC's compiles (0.1-0.6 s each for the large
// recorded spaces' kernels) set the tree's pace on an H100: 5-16 evaluations a second, the GPU
// waiting for compiles 31-48% of the tuning (bench/results/h100-2026-12-08-end-to-end.md).
search::TreeOptions tree_options(const search::Evaluator& evaluator) {
    search::TreeOptions options;
    options.in_flight = std::max(options.in_flight, evaluator.streaming_depth());
    return options;
}

std::optional<search::TreeResult> run_transformations(const TransformInputs& in,
                                                      std::ostream& log) {
    const spec::Spec& spec = *in.spec;
    const std::string prefix = "optiml: " + spec.name + ": transformations: ";
    const search::Result& parameters = *in.parameters;
    if (!parameters.best || !parameters.baseline ||
        !parameters.trace[*parameters.baseline].outcome.ok) {
        log << prefix << "no correct variant to start from\n";
        return std::nullopt;
    }
    CandidateEvaluator& evaluator = *in.evaluator;
    propose::KernelContext context;
    context.kernel = function_name(spec.kernel);
    for (const expr::Expr& axis : spec.launch.grid) context.grid.push_back(axis.text());
    try {
        const auto kernel = source::find_kernel(evaluator.sources().text(""), context.kernel);
        context.read_only = read_only_parameters(spec, kernel);
        context.pointer_counts = pointer_counts(spec, kernel);
    } catch (const source::RewriteError& e) {
        log << prefix << "not started: " << e.what() << "\n";
        return std::nullopt;
    }

    std::map<search::Candidate, analysis::EvidenceReport> reports;
    context.text_of = [&](const search::Candidate& c) -> std::string {
        return evaluator.sources().text(c.source_id);
    };
    context.evidence_of = [&](const search::Candidate& c) -> const analysis::EvidenceReport* {
        const auto found = reports.find(c);
        return found == reports.end() ? nullptr : &found->second;
    };
    context.block_threads = [&](const search::Config& config) -> std::optional<long> {
        try {
            const auto launch = make_launch(spec, config);
            return static_cast<long>(launch.block[0]) * launch.block[1] * launch.block[2];
        } catch (const std::exception&) {
            return std::nullopt;
        }
    };
    context.register_source = [&](const std::string& text) {
        return evaluator.sources().add(text);
    };

    std::vector<std::string> notes;
    const auto ceilings = profile::device_ceilings(*in.device, in.cache_root, in.scratch, notes);
    for (const auto& note : notes) log << prefix << note << "\n";
    // A node's counters are the proxies alone (few replay passes); stall samples, which only the
    // unroll proposer reads, are taken for the root and each node faster than all profiled before.
    profile::ProfileRequest request;
    request.metrics = profile::proxy_metrics();
    double fastest_sampled_ms = 0.0;
    const search::NodeProfiler profiler =
        [&](const search::Candidate& c,
            const search::Outcome& measured) -> std::optional<search::NodeProfile> {
        const compile::CompileResult* compiled = evaluator.compiled(c);
        if (!compiled || !compiled->ok) return std::nullopt;
        const auto launch = write_launch(spec, c, *compiled, in.scratch / "node.cubin");
        request.pc_sampling = fastest_sampled_ms == 0.0 || measured.median_ms < fastest_sampled_ms;
        if (request.pc_sampling) fastest_sampled_ms = measured.median_ms;
        profile::VariantProfile variant{
            search::format_candidate(c),
            profile::profile_variant(*in.session, launch, request, kNodeProfileTimeout),
            measured.median_ms};
        if (!variant.result.ok) return std::nullopt;
        analysis::EvidenceReport report =
            profile::evidence_report(spec.name, in.device->name, variant, ceilings, std::nullopt);
        search::NodeProfile node;
        if (report.metrics) node.metrics = propose::node_metrics(*report.metrics);
        node.bottleneck = propose::bottleneck(report);
        reports[c] = std::move(report);
        return node;
    };

    propose::ParameterMoves parameter_moves(*in.space);
    propose::OptionMoves option_moves(context);
    propose::RewriteMoves rewrite_moves(context);
    propose::RuleJudge rule_judge;
    std::vector<search::Proposer*> proposers = {&rewrite_moves, &option_moves, &parameter_moves};
    search::Judge* judge = &rule_judge;
    std::optional<llm::LlmProposer> llm_proposer;
    std::optional<llm::LlmJudge> llm_judge;
    if (in.chat) {
        const llm::LlmKernelSetup setup{context, in.device->name, spec.source.filename().string(),
                                        launch_line(spec), in.space};
        llm_proposer.emplace(*in.chat, setup,
                             text_compiler(spec, in.device->arch, evaluator.sources()));
        llm_judge.emplace(*in.chat, setup, rule_judge);
        proposers.insert(proposers.begin(), &*llm_proposer);
        judge = &*llm_judge;
    }

    search::TreeStart start;
    const auto& best = parameters.trace[*parameters.best];
    start.root = best.candidate;
    start.root_outcome = best.outcome;
    start.original_ms = parameters.trace[*parameters.baseline].outcome.median_ms;
    for (const auto& item : parameters.trace) start.measured.insert(item.candidate);

    log << prefix << "tree from " << search::format_candidate(start.root) << ", budget "
        << in.budget.evaluations << " evaluations / " << static_cast<int>(in.budget.seconds)
        << " s\n"
        << std::flush;
    search::TreeResult tree = search::run_tree_search(start, evaluator, proposers, *judge, profiler,
                                                      in.budget, tree_options(evaluator));
    const auto& winner = tree.nodes.at(tree.best);
    log << prefix << tree.trace.size() << " evaluations, " << tree.nodes.size() << " nodes; best "
        << search::format_candidate(winner.candidate()) << ", " << winner.outcome.median_ms
        << " ms\n";
    if (llm_proposer) {
        for (const auto& record : llm_proposer->records())
            for (const auto& attempt : record.attempts)
                log << prefix << "llm at " << search::format_candidate(record.parent)
                    << ", attempt " << attempt.number << ": " << attempt.stage
                    << (attempt.reason.empty() ? "" : ": " + attempt.reason.substr(0, 300)) << "\n";
        if (in.llm_record)
            *in.llm_record = llm::llm_record(tree, llm_proposer->records(), llm_judge->notes());
    }
    return tree;
}

search::Result merge_results(search::Result parameters, const search::TreeResult& tree) {
    const double offset = parameters.wall_s;
    for (const auto& item : tree.trace) {
        search::TraceItem moved = item;
        moved.elapsed_s += offset;
        parameters.trace.push_back(std::move(moved));
    }
    parameters.wall_s += tree.wall_s;
    parameters.stopped_by_time = parameters.stopped_by_time || tree.stopped_by_time;
    parameters.stop_reason = "parameters: " + parameters.stop_reason + "; transformations: " +
                             (tree.stopped_by_time ? "the time budget was spent"
                                                   : "its budget was spent or nothing was left");
    if (tree.best != 0) {
        const search::Candidate& winner = tree.nodes.at(tree.best).proposal.candidate;
        for (std::size_t i = 0; i < parameters.trace.size(); ++i)
            if (parameters.trace[i].candidate == winner && parameters.trace[i].outcome.ok)
                parameters.best = i;
    }
    return parameters;
}

}  // namespace optiml::tune
