#include "driver/tune/size_tuning.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "driver/base/elapsed.h"
#include "driver/base/format.h"
#include "driver/search/candidate_json.h"
#include "driver/search/size_dispatch.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/measuring_session.h"

namespace optiml::tune {
namespace {

// Whether `problem` sets every size to the value the spec's own arguments have: the tuning at
// the arguments' own values has tuned it already.
bool is_own_problem(const spec::Spec& spec, const spec::ProblemSize& problem) {
    for (const auto& [name, value] : problem.scalars) {
        const auto argument = std::find_if(spec.arguments.begin(), spec.arguments.end(),
                                           [&](const spec::Argument& a) { return a.name == name; });
        const auto launch =
            std::find_if(spec.launch_arguments.begin(), spec.launch_arguments.end(),
                         [&](const spec::LaunchArgument& a) { return a.name == name; });
        const bool same = argument != spec.arguments.end()
                              ? !argument->is_pointer && argument->integer_value == value
                              : launch != spec.launch_arguments.end() && launch->value == value;
        if (!same) return false;
    }
    return true;
}

// One problem's session and evaluator, the spec at that problem and the image cache kept alive
// beside them.
struct ProblemRun {
    spec::Spec spec;
    std::unique_ptr<MeasuringSession> session;
    std::optional<compile::ImageCache> images;
    std::unique_ptr<CandidateEvaluator> evaluator;
    // What this session's search measured: a time, or 0 where the candidate failed here.
    std::map<search::Candidate, double> searched_ms;
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
    // A variant compiles the same at every problem: the images the tuning at the arguments' own
    // values (or an earlier problem) compiled are served from the cache, not compiled again.
    if (!request.cache_root.empty()) {
        run->images.emplace(compile::image_cache_dir(request.cache_root));
        run->evaluator->set_image_cache(&*run->images);
    }
    return run;
}

// What a problem's session holds on the GPU, roughly: its buffers four times over (inputs and
// outputs, the reference's outputs, the copies that rotate through the L2) and a CUDA context.
std::size_t session_bytes(const measure::Problem& problem) {
    constexpr std::size_t kContextBytes = std::size_t{512} << 20;
    std::size_t buffers = 0;
    for (const measure::BufferSpec& buffer : problem.arguments)
        if (buffer.is_pointer) buffers += buffer.count * spec::size_of(buffer.type);
    for (const measure::BufferSpec& constant : problem.constants)
        buffers += constant.count * spec::size_of(constant.type);
    return 4 * buffers + kContextBytes;
}

// A later problem's search starts from the winners so far, which were the best of whole searches:
// it has converged once this many evaluations in a row found nothing 1% faster (a first search
// waits search::kMinPatience, for want of any such start).
constexpr std::size_t kProblemPatience = 30;

// The problem's own search: parameters only, from the winners so far, half the budget's
// evaluations and time, stopping once converged. The original configuration is not measured:
// the winners are what this problem's results are compared with (in the matrix), and at a
// large problem the original is often the slowest of all (418 ms of a naive 8192^3 matmul, whose
// budget of 4 s it spent alone).
search::Result search_problem(const TuneRequest& request, ProblemRun& run,
                              const std::vector<search::Candidate>& winners) {
    search::Budget budget = request.budget;
    budget.evaluations = std::max(8, request.budget.evaluations / 2);
    budget.seconds = request.budget.seconds / 2;
    budget.stop_when_converged = true;
    budget.patience = kProblemPatience;
    budget.measure_baseline = false;
    for (const search::Candidate& winner : winners) budget.priors.push_back(winner.parameters);
    const search::Space space = tuning_space(run.spec);
    return search::run_search(space, *run.evaluator, budget);
}

// Every variant at one problem; not above 0 where it failed there. What the session's own search
// measured is taken as it is (a later problem's search starts with every winner so far, so at the
// large problems, the dearest to time, that is most of them); the rest are timed in one batch.
std::vector<double> time_variants(ProblemRun& run, const std::vector<search::Candidate>& variants,
                                  const SourceVariants& sources) {
    std::vector<search::Candidate> missing;
    for (const search::Candidate& variant : variants) {
        if (run.searched_ms.contains(variant)) continue;
        missing.push_back(variant);
        if (!variant.is_original_source())
            run.evaluator->sources().add(sources.text(variant.source_id));
    }
    if (!missing.empty()) {
        run.evaluator->set_streaming(false);
        const std::vector<search::Outcome> outcomes = run.evaluator->evaluate(missing);
        for (std::size_t i = 0; i < missing.size(); ++i)
            run.searched_ms[missing[i]] = outcomes[i].ok ? outcomes[i].median_ms : 0.0;
    }
    std::vector<double> times;
    for (const search::Candidate& variant : variants) times.push_back(run.searched_ms[variant]);
    return times;
}

// The fastest time at problem p among the matrix's variants; 0 where none ran there.
double column_best(const search::GeneralisationMatrix& matrix, std::size_t p) {
    double best = 0.0;
    for (const auto& row : matrix.times)
        if (row[p] > 0 && (best == 0.0 || row[p] < best)) best = row[p];
    return best;
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

// The two phases and what they leave: the variants (the arguments' own winner first), the
// problems that were tuned and then timed, the matrix, and the record for the manifest.
class ProblemTuning {
  public:
    ProblemTuning(const TuneRequest& request, const search::Candidate& winner,
                  const SourceVariants& sources, std::ostream& log, const std::string& prefix)
        : request_(request), sources_(sources), log_(log), prefix_(prefix), variants_{winner} {}

    // Each problem's own winner, its search starting from the winners so far.
    void tune_each(const std::vector<spec::ProblemSize>& problems) {
        for (const spec::ProblemSize& problem : problems) {
            if (is_own_problem(*request_.spec, problem)) {
                line() << spec::describe(problem) << ": the arguments' own values, tuned first\n";
                tuned_.push_back(problem);
                searches_.push_back({{"evaluations", 0},
                                     {"wall_s", 0.0},
                                     {"stop_reason", "the arguments' own values: tuned first"}});
                continue;
            }
            const auto start = std::chrono::steady_clock::now();
            std::string why;
            std::unique_ptr<ProblemRun> run = open_problem(request_, problem, why);
            if (!run) {
                line() << spec::describe(problem) << ": left out: " << why << "\n";
                continue;
            }
            const search::Result result = search_problem(request_, *run, variants_);
            if (!result.best) {
                line() << spec::describe(problem) << ": left out: no configuration ran\n";
                continue;
            }
            // The search's own time, and the problem's: its session's start (inputs, the
            // original's reference outputs) included.
            const double problem_s = base::since_ms(start) / 1000.0;
            const search::TraceItem& best = result.trace[*result.best];
            line() << spec::describe(problem) << ": " << search::format_candidate(best.candidate)
                   << ", " << base::format::milliseconds(best.outcome.median_ms) << " in "
                   << result.trace.size() << " evaluations, " << base::format::seconds(problem_s)
                   << " (" << result.stop_reason << ")\n";
            if (std::find(variants_.begin(), variants_.end(), best.candidate) == variants_.end())
                variants_.push_back(best.candidate);
            for (const search::TraceItem& item : result.trace)
                run->searched_ms[item.candidate] = item.outcome.ok ? item.outcome.median_ms : 0.0;
            keep(tuned_.size(), std::move(run));
            tuned_.push_back(problem);
            searches_.push_back({{"evaluations", result.trace.size()},
                                 {"wall_s", result.wall_s},
                                 {"problem_wall_s", problem_s},
                                 {"stop_reason", result.stop_reason}});
        }
    }

    // Every winner at every tuned problem, side by side in one session each.
    void time_every_winner() {
        const auto start = std::chrono::steady_clock::now();
        matrix_.times.assign(variants_.size(), {});
        for (std::size_t p = 0; p < tuned_.size(); ++p) {
            const spec::ProblemSize& problem = tuned_[p];
            std::string why;
            // The search's own session where it was kept (a session a problem; closed once timed).
            const auto kept = kept_.find(p);
            if (kept != kept_.end()) ++reused_sessions_;
            const std::unique_ptr<ProblemRun> run = kept != kept_.end()
                                                        ? std::move(kept->second)
                                                        : open_problem(request_, problem, why);
            const std::vector<double> times =
                run ? time_variants(*run, variants_, sources_) : std::vector<double>{};
            if (std::none_of(times.begin(), times.end(), [](double t) { return t > 0; })) {
                line() << spec::describe(problem) << ": no winner ran there; left out\n";
                continue;
            }
            timed_.push_back(problem);
            matrix_.sizes.push_back(spec::dispatch_size(problem));
            for (std::size_t v = 0; v < variants_.size(); ++v) matrix_.times[v].push_back(times[v]);
        }
        matrix_wall_s_ = base::since_ms(start) / 1000.0;
    }

    // The matrix, the dispatch and what one variant loses, logged and as the manifest's record;
    // null when no problem was timed.
    nlohmann::json record() {
        if (timed_.empty()) return nullptr;
        log_matrix();
        nlohmann::json out = {{"problems", nlohmann::json::array()},
                              {"variants", nlohmann::json::array()},
                              {"times_ms", matrix_.times},
                              {"matrix_wall_s", matrix_wall_s_},
                              {"searches", searches_}};
        for (const spec::ProblemSize& problem : timed_) out["problems"].push_back(problem.scalars);
        for (const search::Candidate& variant : variants_) {
            nlohmann::json object = nlohmann::json::object();
            search::write_candidate(variant, object);
            out["variants"].push_back(object);
        }
        try {
            const search::SizeDispatch dispatch = search::choose_dispatch(matrix_);
            out["dispatch"] = dispatch_json(dispatch);
            log_dispatch(dispatch);
            out["dispatch"]["images"] = build_images(dispatch);
        } catch (const std::invalid_argument& e) {
            line() << "no dispatch by size: " << e.what() << "\n";
        }
        // What one variant everywhere loses (the winner at the arguments' own values, row 0).
        std::vector<double> single;
        for (std::size_t p = 0; p < timed_.size(); ++p)
            single.push_back(matrix_.times[0][p] > 0
                                 ? matrix_.times[0][p] / column_best(matrix_, p) - 1.0
                                 : -1.0);
        out["single_variant_loss"] = single;
        const double worst = *std::max_element(single.begin(), single.end());
        line() << "one variant at every size (the winner at the arguments' own values) would be "
               << (worst < 0 ? std::string("failing at some problem")
                             : std::to_string(std::lround(100 * worst)) +
                                   "% slower than that problem's best at its worst problem")
               << "; the launcher dispatches by size among the chosen variants\n";
        return out;
    }

    bool tuned_any() const { return !tuned_.empty(); }
    const std::map<std::string, std::string>& files() const { return files_; }
    const std::map<std::string, std::string>& roles() const { return roles_; }

  private:
    std::ostream& line() { return log_ << prefix_; }

    // Keeps tuned problem `p`'s session for the matrix, where it fits: opening it again costs its
    // start (the original compiled, inputs drawn, the original run for reference) a second time.
    // The kept sessions hold at most half the GPU's memory, so that a later problem's session
    // still has room; none is kept where the probe gave no memory size.
    void keep(std::size_t p, std::unique_ptr<ProblemRun> run) {
        const std::size_t bytes = session_bytes(run->session->problem());
        const auto allowance = static_cast<std::size_t>(request_.device.memory_bytes / 2);
        if (kept_bytes_ + bytes > allowance) return;
        kept_bytes_ += bytes;
        kept_[p] = std::move(run);
    }

    // The CUBIN and PTX of each chosen variant but the shipped one (whose images the entry holds
    // already), compiled as the spec's variant: {"<v>": {"cubin": file, "ptx": file}}. A variant
    // that does not compile again is left out and said so.
    nlohmann::json build_images(const search::SizeDispatch& dispatch) {
        nlohmann::json images = nlohmann::json::object();
        for (const std::size_t v : dispatch.variants) {
            if (v == 0) continue;
            const std::string n = std::to_string(v);
            const auto image = [&](compile::Output output) {
                return compile::compile(make_compile_request(*request_.spec, variants_[v], sources_,
                                                             request_.device.arch, output));
            };
            const compile::CompileResult cubin = image(compile::Output::Cubin);
            const compile::CompileResult ptx = image(compile::Output::Ptx);
            if (!cubin.ok || !ptx.ok) {
                line() << "variant " << v << " does not compile again; its images are left out\n";
                continue;
            }
            files_["size_" + n + ".cubin"] = cubin.binary;
            files_["size_" + n + ".ptx"] = ptx.binary;
            roles_["size_cubin_" + n] = "size_" + n + ".cubin";
            roles_["size_ptx_" + n] = "size_" + n + ".ptx";
            images[n] = {{"cubin", "size_" + n + ".cubin"},
                         {"ptx", "size_" + n + ".ptx"},
                         {"lowered_name", cubin.lowered_name}};
        }
        return images;
    }

    // Each variant's time as a fraction of the problem's best.
    void log_matrix() {
        line() << "generalisation matrix (time / the problem's best; variants by row; "
               << variants_.size() << " variants at " << timed_.size() << " problems timed in "
               << base::format::seconds(matrix_wall_s_) << ", " << reused_sessions_
               << " of them in their search's session):\n";
        for (std::size_t p = 0; p < timed_.size(); ++p)
            line() << "  problem " << p << ": " << spec::describe(timed_[p]) << "\n";
        for (std::size_t v = 0; v < variants_.size(); ++v) {
            line() << "  " << v << " " << search::format_candidate(variants_[v]) << ":";
            for (std::size_t p = 0; p < timed_.size(); ++p) {
                const double t = matrix_.times[v][p], best = column_best(matrix_, p);
                log_ << " ";
                if (t > 0 && best > 0)
                    log_ << std::fixed << std::setprecision(3) << t / best << std::defaultfloat;
                else
                    log_ << "failed";
            }
            log_ << "\n";
        }
    }

    void log_dispatch(const search::SizeDispatch& dispatch) {
        line() << "dispatch by size: " << dispatch.variants.size() << " of " << variants_.size()
               << " variants keep every problem within "
               << std::lround(100 * search::kDispatchTolerance) << "% of its best:";
        // The axis: the product of the sizes a problem sets ("n", "m * n").
        std::string axis;
        for (const auto& [name, value] : timed_.front().scalars)
            axis += (axis.empty() ? "" : " * ") + name;
        for (std::size_t r = 0; r < dispatch.ranges.size(); ++r) {
            const search::SizeRange& range = dispatch.ranges[r];
            log_ << (r == 0 ? " " : ", ") << "variant " << range.variant << " ("
                 << search::format_candidate(variants_[range.variant]) << ")"
                 << (std::isinf(range.below)
                         ? std::string(" above")
                         : " where " + axis + " < " + base::format::number(range.below));
        }
        log_ << "\n";
    }

    const TuneRequest& request_;
    const SourceVariants& sources_;
    std::ostream& log_;
    const std::string& prefix_;
    std::vector<search::Candidate> variants_;
    std::vector<spec::ProblemSize> tuned_, timed_;
    nlohmann::json searches_ = nlohmann::json::array();
    std::map<std::size_t, std::unique_ptr<ProblemRun>> kept_;  // by index into tuned_
    std::size_t kept_bytes_ = 0;
    std::size_t reused_sessions_ = 0;
    search::GeneralisationMatrix matrix_;
    double matrix_wall_s_ = 0.0;
    std::map<std::string, std::string> files_, roles_;
};

}  // namespace

ProblemTuningResult tune_problems(const TuneRequest& request, const search::Candidate& winner,
                                  const SourceVariants& sources, std::ostream& log,
                                  const std::string& prefix) {
    const spec::Spec& spec = *request.spec;
    if (spec.problems.empty()) return {};
    std::vector<spec::ProblemSize> problems = spec.problems;
    std::stable_sort(problems.begin(), problems.end(), [](const auto& a, const auto& b) {
        return spec::dispatch_size(a) < spec::dispatch_size(b);
    });
    log << prefix << "tuning at each of the spec's " << problems.size()
        << " problems, from the winners so far\n";
    ProblemTuning tuning(request, winner, sources, log, prefix);
    tuning.tune_each(problems);
    if (!tuning.tuned_any()) return {};
    tuning.time_every_winner();
    ProblemTuningResult result;
    result.record = tuning.record();
    result.files = tuning.files();
    result.roles = tuning.roles();
    return result;
}

}  // namespace optiml::tune
