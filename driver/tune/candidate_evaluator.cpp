#include "driver/tune/candidate_evaluator.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "cache/key.h"
#include "driver/base/elapsed.h"
#include "driver/base/read_file.h"
#include "driver/compile/kernel_symbol.h"
#include "driver/identity/compiler_choice.h"
#include "driver/identity/kernel_key.h"
#include "driver/measure/statistics.h"
#include "driver/tune/device_only_source.h"
#include "driver/tune/timing_conditions.h"

namespace optiml::tune {
namespace fs = std::filesystem;

namespace {

search::Outcome to_outcome(const Measurement& m) {
    search::Outcome o{m.ok, m.status, m.message, m.median_ms, m.min_ms, m.max_ms, m.runs, {}, {}};
    if (!m.ok) return o;
    search::OutcomeDetails& d = o.details;
    d.ci_low_ms = m.ci_low_ms;
    d.ci_high_ms = m.ci_high_ms;
    d.verify_ms = m.verify_ms;
    d.timing_ms = m.timing_ms;
    d.sm_clock_mhz = m.sm_clock_mhz;
    d.memory_clock_mhz = m.memory_clock_mhz;
    d.launch_bound = m.launch_bound;
    // How each timed run started with a cold L2 (an older worker says nothing).
    if (m.cold_cache == "rotate") d.input_copies = m.input_copies;
    d.l2_flushed = m.cold_cache == "flush";
    if (m.has_incumbent) {
        d.incumbent_median_ms = m.incumbent_median_ms;
        d.incumbent_ci_low_ms = m.incumbent_ci_low_ms;
        d.incumbent_ci_high_ms = m.incumbent_ci_high_ms;
    }
    add_conditions(m, d);
    return o;
}

// The trace's compile figures: the compile's own time (or the image cache's lookup), how long
// the GPU waited for it, and whether the image cache served it.
void note_compile(search::Outcome& outcome, double compile_ms, double wait_ms, bool cached) {
    outcome.details.compile_ms = compile_ms;
    outcome.details.compile_wait_ms = wait_ms;
    outcome.details.compile_cached = cached;
}

// What decides how an image runs: its bytes, the kernel looked up in it, the launch geometry,
// and the grid's expressions (the geometry at the spec's extra sizes).
std::string image_identity(const search::Candidate& candidate,
                           const compile::CompileResult& compiled, const LaunchSpec& launch) {
    std::string identity = cache::sha256_hex(compiled.binary) + " " + launch.symbol;
    for (const unsigned extent : {launch.grid[0], launch.grid[1], launch.grid[2], launch.block[0],
                                  launch.block[1], launch.block[2], launch.shared_memory_bytes})
        identity += " " + std::to_string(extent);
    for (const std::string& axis : candidate.grid) identity += " " + axis;
    return identity;
}

search::Outcome failure(std::string status, std::string message) {
    search::Outcome outcome;
    outcome.status = std::move(status);
    outcome.message = std::move(message);
    return outcome;
}

}  // namespace

compile::CompileRequest make_compile_request(const spec::Spec& spec,
                                             const search::Candidate& candidate,
                                             const SourceVariants& sources, int arch,
                                             compile::Output output) {
    compile::CompileRequest request = identity::request_of_text(
        spec, candidate.parameters, sources.text(candidate.source_id), arch, output);
    request.backend = identity::choose_compiler(spec, arch).backend;
    request.options.insert(request.options.end(), candidate.options.begin(),
                           candidate.options.end());
    if (request.backend == compile::Backend::Nvcc)
        use_device_only_text(request, device_only_plan(spec, sources, arch));
    return request;
}

DeviceOnlyPlan device_only_plan(const spec::Spec& spec, const SourceVariants& sources, int arch) {
    compile::CompileRequest original = identity::request_of_text(
        spec, spec.default_config(), sources.text(""), arch, compile::Output::Cubin);
    original.backend = identity::choose_compiler(spec, arch).backend;
    return device_only_plan(original);
}

LaunchSpec make_launch(const spec::Spec& spec, const search::Config& config,
                       const spec::ProblemSize* size) {
    return make_launch(spec, search::Candidate(config), size);
}

LaunchSpec make_launch(const spec::Spec& spec, const search::Candidate& candidate,
                       const spec::ProblemSize* size) {
    const expr::Env env = spec.environment(candidate.parameters, size);
    if (!candidate.grid.empty() && candidate.grid.size() != 3)
        throw std::invalid_argument("a candidate's grid has " +
                                    std::to_string(candidate.grid.size()) + " axes, not 3");
    LaunchSpec launch;
    for (std::size_t d = 0; d < 3; ++d) {
        const std::int64_t grid = candidate.grid.empty()
                                      ? spec.launch.grid[d].eval(env)
                                      : expr::Expr::parse(candidate.grid[d]).eval(env);
        const std::int64_t block = spec.launch.block[d].eval(env);
        if (grid < 1 || block < 1)
            throw std::invalid_argument("launch geometry has a dimension below 1 (grid " +
                                        std::to_string(grid) + ", block " + std::to_string(block) +
                                        ")");
        launch.grid[d] = static_cast<unsigned>(grid);
        launch.block[d] = static_cast<unsigned>(block);
    }
    const std::int64_t shared = spec.launch.shared_memory_bytes.eval(env);
    if (shared < 0) throw std::invalid_argument("negative dynamic shared memory");
    launch.shared_memory_bytes = static_cast<unsigned>(shared);
    return launch;
}

LaunchSpec write_launch(const spec::Spec& spec, const search::Candidate& candidate,
                        const compile::CompileResult& compiled, const fs::path& image) {
    LaunchSpec launch = make_launch(spec, candidate);
    launch.symbol = compiled.lowered_name;
    launch.image_path = image.string();
    std::ofstream(image, std::ios::binary) << compiled.binary;
    return launch;
}

void add_extra_sizes(const spec::Spec& spec, const Problem& main, const LaunchSpec& original,
                     RemoteSession& session) {
    for (const spec::ProblemSize& size : spec.check.extra_sizes) {
        Problem problem = measure::make_problem(spec, &size);
        problem.seed_base = main.seed_base;
        problem.compare_library = main.compare_library;
        problem.compare_source = main.compare_source;
        problem.generators = main.generators;  // the same libraries: built once
        LaunchSpec launch = make_launch(spec, spec.default_config(), &size);
        launch.symbol = original.symbol;
        launch.image_path = original.image_path;
        session.add_problem(std::move(problem), std::move(launch), spec::describe(size));
    }
}

CandidateEvaluator::CandidateEvaluator(const spec::Spec& spec, int arch, RemoteSession& session,
                                       fs::path scratch_dir, TimingSpec timing)
    : CandidateEvaluator(spec, arch, session, std::move(scratch_dir), timing,
                         identity::scan_sources(spec)) {}

// The kernel is read once: every candidate of the original source compiles that text.
CandidateEvaluator::CandidateEvaluator(const spec::Spec& spec, int arch, RemoteSession& session,
                                       fs::path scratch_dir, TimingSpec timing,
                                       const identity::KernelSources& kernel)
    : spec_(spec),
      arch_(arch),
      session_(session),
      scratch_(std::move(scratch_dir)),
      timing_(timing),
      sources_(kernel.files.front().contents),
      headers_digest_(identity::headers_digest(kernel)) {}

compile::CompileQueue& CandidateEvaluator::queue() {
    if (!queue_) queue_ = std::make_unique<compile::CompileQueue>(0, images_, headers_digest_);
    return *queue_;
}

compile::CompileRequest CandidateEvaluator::request_for(const search::Candidate& candidate) const {
    return make_compile_request(spec_, candidate, sources_, arch_, compile::Output::Cubin);
}

std::vector<search::Outcome> CandidateEvaluator::evaluate(
    const std::vector<search::Candidate>& batch) {
    std::map<std::size_t, std::size_t> position;  // ticket -> index in the batch
    for (std::size_t i = 0; i < batch.size(); ++i)
        position[queue().submit(request_for(batch[i]))] = i;
    const auto compile_start = std::chrono::steady_clock::now();
    std::vector<compile::CompileQueue::Done> done(batch.size());
    for (std::size_t i = 0; i < batch.size(); ++i) {
        auto finished = queue().next();
        if (!finished) throw std::logic_error("a compile of the batch went missing");
        done[position.at(finished->ticket)] = std::move(*finished);
    }
    // The GPU waits for the whole batch: each variant is charged its share of that wait.
    const double wait_ms = base::since_ms(compile_start) / static_cast<double>(batch.size());

    Compiled compiled;
    for (std::size_t i = 0; i < batch.size(); ++i)
        compiled.push_back(&(compiled_[batch[i]] = std::move(done[i].result)));
    std::vector<search::Outcome> outcomes =
        pool_ ? evaluate_spread(batch, compiled) : evaluate_in_turn(batch, compiled);
    for (std::size_t i = 0; i < batch.size(); ++i)
        note_compile(outcomes[i], done[i].compile_ms, wait_ms, done[i].cached);
    return outcomes;
}

std::size_t CandidateEvaluator::streaming_depth() const {
    if (pool_ || !streaming_) return 0;
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    return std::min<std::size_t>(cores + 2, search::kMaxStreamingDepth);
}

void CandidateEvaluator::submit(const search::Candidate& candidate) {
    submitted_[queue().submit(request_for(candidate))] = candidate;
}

// The candidate a finished compile was for, no longer in flight; its result kept in compiled_.
search::Candidate CandidateEvaluator::claim(compile::CompileQueue::Done& finished) {
    const auto found = submitted_.find(finished.ticket);
    search::Candidate candidate = found->second;
    submitted_.erase(found);
    compiled_[candidate] = std::move(finished.result);
    return candidate;
}

std::optional<std::pair<search::Candidate, search::Outcome>> CandidateEvaluator::collect() {
    const auto wait_start = std::chrono::steady_clock::now();
    auto finished = queue().next();
    if (!finished) return std::nullopt;
    const double wait_ms = base::since_ms(wait_start);
    search::Candidate candidate = claim(*finished);
    const compile::CompileResult& compiled = compiled_.at(candidate);
    search::Outcome outcome =
        compiled.ok ? evaluate_one(candidate, compiled) : failure("compile_error", compiled.log);
    note_compile(outcome, finished->compile_ms, wait_ms, finished->cached);
    return std::pair{std::move(candidate), std::move(outcome)};
}

std::size_t CandidateEvaluator::cancel_pending() {
    if (!queue_) return 0;
    const std::vector<std::size_t> dropped = queue_->cancel_pending();
    for (const std::size_t ticket : dropped) submitted_.erase(ticket);
    return dropped.size();
}

// A compiled image is kept (a later search may propose the same candidate); it is not timed.
bool CandidateEvaluator::discard() {
    auto finished = queue().next();
    if (!finished) return false;
    claim(*finished);
    return true;
}

std::vector<search::Outcome> CandidateEvaluator::evaluate_in_turn(
    const std::vector<search::Candidate>& batch, const Compiled& compiled) {
    std::vector<search::Outcome> outcomes;
    for (std::size_t i = 0; i < batch.size(); ++i)
        outcomes.push_back(compiled[i]->ok ? evaluate_one(batch[i], *compiled[i])
                                           : failure("compile_error", compiled[i]->log));
    return outcomes;
}

// Verification of the whole batch on every GPU of the pool, then timing in batch order on the
// session's GPU: the same checks, verdicts, timings and decisions as evaluate_in_turn.
std::vector<search::Outcome> CandidateEvaluator::evaluate_spread(
    const std::vector<search::Candidate>& batch, const Compiled& compiled) {
    std::vector<search::Outcome> outcomes(batch.size());
    std::vector<LaunchSpec> launches(batch.size());
    std::vector<std::string> identities(batch.size());
    std::vector<std::size_t> runnable;
    for (std::size_t i = 0; i < batch.size(); ++i) {
        if (!compiled[i]->ok) {
            outcomes[i] = failure("compile_error", compiled[i]->log);
        } else if (auto failed = write_image(batch[i], *compiled[i], launches[i])) {
            outcomes[i] = std::move(*failed);
        } else {
            identities[i] = image_identity(batch[i], *compiled[i], launches[i]);
            if (auto same = measured_before(identities[i])) {
                fs::remove(launches[i].image_path);
                outcomes[i] = std::move(*same);
            } else {
                runnable.push_back(i);
            }
        }
    }

    struct Verification {
        Measurement main;                        // at the spec's own size
        std::optional<search::Outcome> failure;  // at whichever size it failed first
        double extra_sizes_ms = 0.0;
    };
    std::vector<Verification> verifications(runnable.size());
    const std::chrono::milliseconds timeout = hang_timeout();
    const std::vector<int> devices =
        pool_->spread(runnable.size(), [&](RemoteSession& session, std::size_t k) {
            const std::size_t i = runnable[k];
            Verification& v = verifications[k];
            v.main = session.verify(0, launches[i], timeout);
            if (!v.main.ok)
                v.failure = to_outcome(v.main);
            else
                v.failure =
                    verify_extra_sizes(session, batch[i], launches[i], timeout, v.extra_sizes_ms);
        });

    for (std::size_t k = 0; k < runnable.size(); ++k) {
        const std::size_t i = runnable[k];
        const Verification& v = verifications[k];
        search::Outcome outcome;
        if (v.failure) {  // never timed, as on one GPU
            outcome = *v.failure;
            fs::remove(launches[i].image_path);
        } else {
            const Measurement m = session_.evaluate(launches[i], timing_, hang_timeout(),
                                                    incumbent_ ? &*incumbent_ : nullptr,
                                                    /*verified=*/true);
            outcome = to_outcome(m);
            if (outcome.ok) {
                outcome.details.verify_ms = v.main.verify_ms;
                if (!spec_.check.extra_sizes.empty())
                    outcome.details.extra_sizes_verify_ms = v.extra_sizes_ms;
            }
            outcome = settle(launches[i], m, std::move(outcome));
        }
        outcome.details.verified_on_device = devices[k];
        remember_measured(identities[i], batch[i], outcome);
        outcomes[i] = std::move(outcome);
    }
    return outcomes;
}

// Long enough for every verification and timed run of a variant 20x slower than the original,
// with a floor for start-up; a hang is cut off there and its worker killed.
std::chrono::milliseconds CandidateEvaluator::hang_timeout() const {
    if (original_ms_ <= 0.0) return std::chrono::minutes(5);
    const double launches = 2.0 + spec_.check.trials + 2.0 * (timing_.warmup + timing_.max_runs);
    return std::chrono::milliseconds(10000 +
                                     static_cast<long long>(20.0 * original_ms_ * launches));
}

std::optional<search::Outcome> CandidateEvaluator::write_image(
    const search::Candidate& candidate, const compile::CompileResult& compiled,
    LaunchSpec& launch) {
    try {
        launch =
            write_launch(spec_, candidate, compiled,
                         scratch_ / ("candidate-" + std::to_string(images_written_++) + ".cubin"));
    } catch (const std::exception& e) {
        return failure("launch_error", e.what());
    }
    return std::nullopt;
}

search::Outcome CandidateEvaluator::evaluate_one(const search::Candidate& candidate,
                                                 const compile::CompileResult& compiled) {
    LaunchSpec launch;
    if (auto failed = write_image(candidate, compiled, launch)) return *failed;
    const std::string identity = image_identity(candidate, compiled, launch);
    if (auto same = measured_before(identity)) {
        fs::remove(launch.image_path);
        return *same;
    }
    const Measurement m =
        session_.evaluate(launch, timing_, hang_timeout(), incumbent_ ? &*incumbent_ : nullptr);
    search::Outcome outcome = to_outcome(m);
    if (outcome.ok && !spec_.check.extra_sizes.empty()) {
        double verify_ms = 0.0;
        if (auto failed =
                verify_extra_sizes(session_, candidate, launch, hang_timeout(), verify_ms))
            outcome = std::move(*failed);
        else
            outcome.details.extra_sizes_verify_ms = verify_ms;
    }
    outcome = settle(launch, m, std::move(outcome));
    remember_measured(identity, candidate, outcome);
    return outcome;
}

std::optional<search::Outcome> CandidateEvaluator::measured_before(
    const std::string& identity) const {
    const auto found = measured_.find(identity);
    if (found == measured_.end()) return std::nullopt;
    search::Outcome outcome = found->second.second;
    // Its measurement, not its costs: nothing ran, and the same code cannot beat itself.
    outcome.beats_incumbent = false;
    outcome.details.verify_ms.reset();
    outcome.details.timing_ms.reset();
    outcome.details.extra_sizes_verify_ms.reset();
    outcome.details.verified_on_device.reset();
    outcome.details.reverified = false;
    outcome.details.same_image_as = found->second.first;
    return outcome;
}

void CandidateEvaluator::remember_measured(const std::string& identity,
                                           const search::Candidate& candidate,
                                           const search::Outcome& outcome) {
    if (outcome.ok) measured_.try_emplace(identity, candidate, outcome);
}

search::Outcome CandidateEvaluator::settle(const LaunchSpec& launch, const Measurement& m,
                                           search::Outcome outcome) {
    if (outcome.ok && original_ms_ > 0.0 && original_ms_ / m.median_ms > 10.0) {
        // Claims over 10x are checked once more on inputs no earlier run has seen.
        const Measurement again = session_.reverify(launch, next_reverify_seed_++, hang_timeout());
        outcome.details.reverified = true;
        if (!again.ok)
            outcome =
                failure(again.status, again.message + " (after a " +
                                          std::to_string(original_ms_ / m.median_ms) + "x claim)");
    }
    if (outcome.ok) {
        if (original_ms_ <= 0.0) original_ms_ = m.median_ms;
        const bool wins =
            !incumbent_ ||
            measure::beats({m.median_ms, m.ci_low_ms, m.ci_high_ms, m.runs, m.min_ms, m.max_ms},
                           {m.incumbent_median_ms, m.incumbent_ci_low_ms, m.incumbent_ci_high_ms,
                            m.incumbent_runs, 0.0, 0.0});
        outcome.beats_incumbent = wins;
        if (wins) {
            if (incumbent_) fs::remove(incumbent_->image_path);
            incumbent_ = launch;
            return outcome;  // its image stays: the next challengers are timed beside it
        }
    }
    fs::remove(launch.image_path);
    return outcome;
}

// The same binary at each extra size, with the geometry that size gives. A failure's message
// starts with the size ("at n=1000003: ..."); its status is the check that failed.
std::optional<search::Outcome> CandidateEvaluator::verify_extra_sizes(
    RemoteSession& session, const search::Candidate& candidate, const LaunchSpec& launch,
    std::chrono::milliseconds timeout, double& verify_ms) const {
    for (std::size_t i = 0; i < spec_.check.extra_sizes.size(); ++i) {
        const spec::ProblemSize& size = spec_.check.extra_sizes[i];
        const std::string at = "at " + spec::describe(size) + ": ";
        LaunchSpec there = launch;
        try {
            const LaunchSpec geometry = make_launch(spec_, candidate, &size);
            there.grid = geometry.grid;
            there.block = geometry.block;
            there.shared_memory_bytes = geometry.shared_memory_bytes;
        } catch (const std::exception& e) {
            return failure("launch_error", at + e.what());
        }
        const Measurement m = session.verify(static_cast<int>(i + 1), there, timeout);
        if (!m.ok) return failure(m.status, at + m.message);
        verify_ms += m.verify_ms;
    }
    return std::nullopt;
}

const compile::CompileResult* CandidateEvaluator::compiled(
    const search::Candidate& candidate) const {
    auto it = compiled_.find(candidate);
    return it == compiled_.end() ? nullptr : &it->second;
}

}  // namespace optiml::tune
