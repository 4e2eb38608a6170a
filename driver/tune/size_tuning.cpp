#include "driver/tune/size_tuning.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "driver/base/format.h"
#include "driver/search/candidate_json.h"
#include "driver/search/size_dispatch.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/measuring_session.h"

namespace optiml::tune {
namespace {

// A problem's place on the dispatch axis: the product of the sizes it sets.
double axis_size(const spec::ProblemSize& problem) {
    double size = 1.0;
    for (const auto& [name, value] : problem.scalars) size *= static_cast<double>(value);
    return size;
}

// One problem's session and evaluator, the spec at that problem kept alive beside them.
struct ProblemRun {
    spec::Spec spec;
    std::unique_ptr<MeasuringSession> session;
    std::unique_ptr<CandidateEvaluator> evaluator;
};

// Opens `problem`'s session; null with why in `why` when it cannot start.
std::unique_ptr<ProblemRun> open_problem(const TuneRequest& request,
                                         const spec::ProblemSize& problem, std::string& why) {
    auto run = std::make_unique<ProblemRun>();
    try {
        run->spec = spec::at_problem(*request.spec, problem);
        run->session = std::make_unique<MeasuringSession>(run->spec, request.device,
                                                          SessionSetup{request.host_compiler});
    } catch (const std::exception& e) {
        why = e.what();
        return nullptr;
    }
    run->evaluator = std::make_unique<CandidateEvaluator>(
        run->spec, request.device.arch, run->session->worker(), run->session->scratch(),
        measure::make_timing(run->spec));
    run->evaluator->set_reverify_seed(run->session->problem().seed_base + 1000);
    return run;
}

// The problem's own search: parameters only, from the winners so far, half the budget's
// evaluations and time, stopping once converged.
search::Result search_problem(const TuneRequest& request, ProblemRun& run,
                              const std::vector<search::Candidate>& winners) {
    search::Budget budget = request.budget;
    budget.evaluations = std::max(8, request.budget.evaluations / 2);
    budget.seconds = request.budget.seconds / 2;
    budget.stop_when_converged = true;
    for (const search::Candidate& winner : winners) budget.priors.push_back(winner.parameters);
    const search::Space space = tuning_space(run.spec);
    return search::run_search(space, *run.evaluator, budget);
}

// Every variant at one problem, in one batch; not above 0 where it failed there.
std::vector<double> time_variants(ProblemRun& run, const std::vector<search::Candidate>& variants,
                                  const SourceVariants& sources) {
    for (const search::Candidate& variant : variants)
        if (!variant.is_original_source())
            run.evaluator->sources().add(sources.text(variant.source_id));
    run.evaluator->set_streaming(false);
    const std::vector<search::Outcome> outcomes = run.evaluator->evaluate(variants);
    std::vector<double> times;
    for (const search::Outcome& outcome : outcomes)
        times.push_back(outcome.ok ? outcome.median_ms : 0.0);
    return times;
}

// The matrix as the log shows it: each variant's time as a fraction of the problem's best.
void log_matrix(const std::vector<spec::ProblemSize>& problems,
                const std::vector<search::Candidate>& variants,
                const search::GeneralisationMatrix& matrix, std::ostream& log,
                const std::string& prefix) {
    log << prefix << "generalisation matrix (time / the problem's best; variants by row):\n";
    for (std::size_t p = 0; p < problems.size(); ++p)
        log << prefix << "  problem " << p << ": " << spec::describe(problems[p]) << "\n";
    for (std::size_t v = 0; v < variants.size(); ++v) {
        log << prefix << "  " << v << " " << search::format_candidate(variants[v]) << ":";
        for (std::size_t p = 0; p < problems.size(); ++p) {
            double best = 0.0;
            for (const auto& row : matrix.times)
                if (row[p] > 0 && (best == 0.0 || row[p] < best)) best = row[p];
            const double t = matrix.times[v][p];
            log << " ";
            if (t > 0 && best > 0)
                log << std::fixed << std::setprecision(3) << t / best << std::defaultfloat;
            else
                log << "failed";
        }
        log << "\n";
    }
}

nlohmann::json dispatch_json(const search::SizeDispatch& dispatch) {
    nlohmann::json ranges = nlohmann::json::array();
    for (const search::SizeRange& range : dispatch.ranges)
        ranges.push_back({{"variant", range.variant},
                          {"first_problem", range.first},
                          {"last_problem", range.last},
                          {"below", std::isinf(range.below) ? nlohmann::json(nullptr)
                                                            : nlohmann::json(range.below)}});
    return {{"variants", dispatch.variants}, {"ranges", ranges}, {"loss", dispatch.loss}};
}

}  // namespace

nlohmann::json tune_problems(const TuneRequest& request, const search::Candidate& winner,
                             const SourceVariants& sources, std::ostream& log,
                             const std::string& prefix) {
    const spec::Spec& spec = *request.spec;
    if (spec.problems.empty()) return nullptr;
    std::vector<spec::ProblemSize> problems = spec.problems;
    std::stable_sort(problems.begin(), problems.end(),
                     [](const auto& a, const auto& b) { return axis_size(a) < axis_size(b); });
    log << prefix << "tuning at each of the spec's " << problems.size()
        << " problems, from the winners so far\n";

    // Phase 1: each problem's own winner, its search starting from the winners so far.
    std::vector<search::Candidate> variants = {winner};
    std::vector<spec::ProblemSize> tuned;
    nlohmann::json searches = nlohmann::json::array();
    for (const spec::ProblemSize& problem : problems) {
        std::string why;
        const std::unique_ptr<ProblemRun> run = open_problem(request, problem, why);
        if (!run) {
            log << prefix << spec::describe(problem) << ": left out: " << why << "\n";
            continue;
        }
        const search::Result result = search_problem(request, *run, variants);
        if (!result.best) {
            log << prefix << spec::describe(problem) << ": left out: no configuration ran\n";
            continue;
        }
        const search::Candidate& best = result.trace[*result.best].candidate;
        log << prefix << spec::describe(problem) << ": " << search::format_candidate(best) << ", "
            << base::format::milliseconds(result.trace[*result.best].outcome.median_ms) << " in "
            << result.trace.size() << " evaluations (" << result.stop_reason << ")\n";
        if (std::find(variants.begin(), variants.end(), best) == variants.end())
            variants.push_back(best);
        tuned.push_back(problem);
        searches.push_back({{"evaluations", result.trace.size()},
                            {"wall_s", result.wall_s},
                            {"stop_reason", result.stop_reason}});
    }
    if (tuned.empty()) return nullptr;

    // Phase 2: every winner at every problem, side by side in one session each.
    search::GeneralisationMatrix matrix;
    matrix.times.assign(variants.size(), {});
    std::vector<spec::ProblemSize> timed;
    for (const spec::ProblemSize& problem : tuned) {
        std::string why;
        const std::unique_ptr<ProblemRun> run = open_problem(request, problem, why);
        const std::vector<double> times =
            run ? time_variants(*run, variants, sources) : std::vector<double>{};
        if (std::none_of(times.begin(), times.end(), [](double t) { return t > 0; })) {
            log << prefix << spec::describe(problem) << ": no winner ran there; left out\n";
            continue;
        }
        timed.push_back(problem);
        matrix.sizes.push_back(axis_size(problem));
        for (std::size_t v = 0; v < variants.size(); ++v) matrix.times[v].push_back(times[v]);
    }
    if (timed.empty()) return nullptr;
    log_matrix(timed, variants, matrix, log, prefix);

    nlohmann::json record = {{"problems", nlohmann::json::array()},
                             {"variants", nlohmann::json::array()},
                             {"times_ms", matrix.times},
                             {"searches", searches}};
    for (const spec::ProblemSize& problem : timed) record["problems"].push_back(problem.scalars);
    for (const search::Candidate& variant : variants) {
        nlohmann::json object = nlohmann::json::object();
        search::write_candidate(variant, object);
        record["variants"].push_back(object);
    }
    // What one variant everywhere loses (the winner at the arguments' own values, row 0).
    std::vector<double> single;
    for (std::size_t p = 0; p < timed.size(); ++p) {
        double best = 0.0;
        for (const auto& row : matrix.times)
            if (row[p] > 0 && (best == 0.0 || row[p] < best)) best = row[p];
        single.push_back(matrix.times[0][p] > 0 ? matrix.times[0][p] / best - 1.0 : -1.0);
    }
    record["single_variant_loss"] = single;
    try {
        const search::SizeDispatch dispatch = search::choose_dispatch(matrix);
        record["dispatch"] = dispatch_json(dispatch);
        log << prefix << "dispatch by size: " << dispatch.variants.size() << " of "
            << variants.size() << " variants keep every problem within "
            << std::lround(100 * search::kDispatchTolerance) << "% of its best:";
        // The axis: the product of the sizes a problem sets ("n", "m * n").
        std::string axis;
        for (const auto& [name, value] : timed.front().scalars)
            axis += (axis.empty() ? "" : " * ") + name;
        for (std::size_t r = 0; r < dispatch.ranges.size(); ++r) {
            const search::SizeRange& range = dispatch.ranges[r];
            log << (r == 0 ? " " : ", ") << "variant " << range.variant << " ("
                << search::format_candidate(variants[range.variant]) << ")"
                << (std::isinf(range.below)
                        ? std::string(" above")
                        : " where " + axis + " < " + base::format::number(range.below));
        }
        log << "\n";
    } catch (const std::invalid_argument& e) {
        log << prefix << "no dispatch by size: " << e.what() << "\n";
    }
    const auto worst = std::max_element(single.begin(), single.end());
    log << prefix << "the launcher ships the winner at the arguments' own values at every size "
        << "(dispatch by size is not built into the launcher yet); at its worst problem it is "
        << (*worst < 0 ? std::string("failing")
                       : std::to_string(std::lround(100 * *worst)) +
                             "% slower than that "
                             "problem's best")
        << "\n";
    return record;
}

}  // namespace optiml::tune
