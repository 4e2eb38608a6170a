#include "driver/tune/tuning.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <memory>
#include <random>
#include <sstream>

#include "driver/base/format.h"
#include "driver/compile/nvrtc_compiler.h"
#include "driver/identity/compiler_choice.h"
#include "driver/identity/kernel_key.h"
#include "driver/identity/version.h"
#include "driver/llm/exchange_chain.h"
#include "driver/llm/llm_config.h"
#include "driver/llm/llm_proposer_record.h"
#include "driver/measure/verifier_pool.h"
#include "driver/search/candidate_json.h"
#include "driver/search/tree_json.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/compare_build.h"
#include "driver/tune/detail/throughput.h"
#include "driver/tune/detail/transform_tuning.h"
#include "driver/tune/detail/tuning_evidence.h"
#include "driver/tune/device_selection.h"
#include "driver/tune/measuring_session.h"
#include "driver/tune/size_tuning.h"
#include "driver/tune/timing_conditions.h"

namespace optiml::tune {
namespace fs = std::filesystem;
namespace {

cache::MeasuredTime measured_time(const search::Outcome& o) {
    return {o.median_ms, o.min_ms, o.max_ms, o.runs};
}

nlohmann::json trace_json(const search::Result& result) {
    nlohmann::json trace = nlohmann::json::array();
    for (const auto& item : result.trace) {
        nlohmann::json row = {{"status", item.outcome.status},
                              {"elapsed_s", item.elapsed_s},
                              {"details", search::details_json(item.outcome.details)}};
        search::write_candidate(item.candidate, row);
        if (item.outcome.beats_incumbent) row["beats_incumbent"] = *item.outcome.beats_incumbent;
        if (item.outcome.ok)
            row["time_ms"] = {{"median", item.outcome.median_ms},
                              {"min", item.outcome.min_ms},
                              {"max", item.outcome.max_ms},
                              {"runs", item.outcome.runs}};
        else
            row["message"] = item.outcome.message.substr(0, 2000);
        trace.push_back(std::move(row));
    }
    return trace;
}

nlohmann::json verification_json(const spec::Spec& spec, const measure::Problem& problem) {
    nlohmann::json out = {{"trials", problem.trials},
                          {"deterministic", problem.deterministic},
                          {"seed_base", problem.seed_base},
                          {"rtol", problem.tolerance.rtol},
                          {"atol", problem.tolerance.atol}};
    if (!spec.check.extra_sizes.empty()) {
        out["extra_sizes"] = nlohmann::json::array();
        for (const auto& size : spec.check.extra_sizes) out["extra_sizes"].push_back(size.scalars);
    }
    if (!spec.check.compare_as_written.empty()) out["compare"] = spec.check.compare_as_written;
    for (const auto& generator : problem.generators)
        out["generators"].push_back({{"source", generator.source}, {"fills", generator.fills}});
    return out;
}

std::string first_line(const std::string& text) {
    const std::string line = text.substr(0, text.find('\n'));
    return line.empty() ? "no log" : line;
}

}  // namespace

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    std::ostringstream out;
    out << std::put_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
    return out.str();
}

search::Space tuning_space(const spec::Spec& spec) {
    search::Space space;
    for (const auto& parameter : spec.parameters) {
        space.names.push_back(parameter.name);
        space.values.push_back(parameter.values);
    }
    space.defaults = spec.default_config();
    // Constraints say at which sizes a configuration works: it must work at every size checked.
    space.is_valid = [&spec](const search::Config& config) {
        const auto holds_at = [&](const spec::ProblemSize* size) {
            const expr::Env env = spec.environment(config, size);
            for (const auto& constraint : spec.constraints)
                if (constraint.eval(env) == 0) return false;
            return true;
        };
        try {
            if (!holds_at(nullptr)) return false;
            for (const auto& size : spec.check.extra_sizes)
                if (!holds_at(&size)) return false;
        } catch (const expr::ExprError&) {
            return false;
        }
        return true;
    };
    return space;
}

std::string entry_summary(const cache::EntryManifest& m) {
    std::ostringstream out;
    out << search::format_config(m.winner.parameters) << ", "
        << base::format::milliseconds(m.time_ms.median) << " vs original "
        << base::format::milliseconds(m.original_time_ms.median) << " (" << speedup_text(m)
        << ") on " << (m.device.name.empty() ? "?" : m.device.name);
    return out.str();
}

namespace {

// One tuning's lines in the log all start "optiml: <kernel>: sm_XX: ".
struct TuningLog {
    std::ostream& out;
    std::string prefix;
    std::string* failure;  // where the one-line reason of a failure goes, if given

    std::ostream& line() { return out << prefix; }
    std::nullopt_t fail(const std::string& why) {
        if (failure) *failure = why;
        return std::nullopt;
    }
};

const char* compiler_label(const identity::CompilerChoice& compiler) {
    return compiler.backend == compile::Backend::Nvcc ? "nvcc" : "NVRTC";
}

// With "compiler": "auto", NVRTC first; where it cannot compile the original (host code, system
// headers), nvcc compiles every variant instead (choose_compiler decides, as the key did).
void log_compiler_choice(const identity::CompilerChoice& compiler, TuningLog& log) {
    if (!compiler.nvrtc_log.empty())
        log.line() << "NVRTC cannot compile the original (" << first_line(compiler.nvrtc_log)
                   << "); trying nvcc\n";
    if (!compiler.nvcc_flag.empty())
        log.line() << "the target compiles the kernel with " << compiler.nvcc_flag
                   << ", which NVRTC does not reproduce; nvcc compiles the original and the "
                      "variants\n";
}

// What nvcc leaves out of every variant's file, or why it cannot (device_only_source.h).
void log_device_only(const DeviceOnlyPlan& plan, TuningLog& log) {
    if (plan.host_functions == 0 && plan.headers.empty()) return;
    std::string headers;
    for (const std::string& header : plan.headers)
        headers += (headers.empty() ? "<" : ", <") + header + ">";
    log.line() << "nvcc " << (plan.used ? "compiles" : "cannot compile")
               << " the variants' device code alone (" << plan.host_functions
               << (plan.host_functions == 1 ? " host function" : " host functions")
               << (headers.empty() ? "" : ", " + headers) << " left out)"
               << (plan.used ? ": the original compiles to the same device code"
                             : ": " + plan.why_not + "; it compiles the whole file")
               << "\n";
    if (!plan.used) return;
    std::string nvrtc_headers;
    for (const std::string& header : plan.nvrtc_headers)
        nvrtc_headers += (nvrtc_headers.empty() ? "" : ", ") + header;
    if (plan.nvrtc)
        log.line() << "NVRTC compiles the device code alone first"
                   << (nvrtc_headers.empty() ? "" : " (" + nvrtc_headers + " left out too)")
                   << ": the original's kernel code is nvcc's; nvcc where NVRTC cannot\n";
    else if (!plan.nvrtc_why_not.empty())
        log.line() << "NVRTC does not compile the device code alone: " << plan.nvrtc_why_not
                   << "\n";
}

// The session of the original, or null with why not in the log (the original kernel stays).
std::unique_ptr<MeasuringSession> open_session(const TuneRequest& request,
                                               const identity::CompilerChoice& compiler,
                                               TuningLog& log) {
    const spec::Spec& spec = *request.spec;
    try {
        auto session = std::make_unique<MeasuringSession>(spec, request.device,
                                                          SessionSetup{request.host_compiler});
        log.line() << compiler_label(compiler) << " compiles the variants\n";
        return session;
    } catch (const SessionError& e) {
        if (e.step == SessionError::Step::Scratch) {
            log.line() << "cannot create a scratch directory; original kernel kept\n";
            log.fail("cannot create a scratch directory");
            return nullptr;
        }
        if (e.step == SessionError::Step::Worker) {
            log.line() << e.what() << "; original kernel kept\n";
            log.fail(e.what());
            return nullptr;
        }
        log.line() << "the original kernel does not compile with " << compiler_label(compiler)
                   << " (" << spec.source_as_written << ", kernel " << spec.kernel << "):\n"
                   << e.compile_log << log.prefix;  // NVRTC's own log was summed up above
        if (compiler.backend == compile::Backend::Nvrtc)
            log.out << "NVRTC compiles device code only and has no system or host headers: keep "
                       "the kernel in a file of device code (host code and headers such as "
                       "<stdio.h> or <assert.h> guarded by #ifndef __CUDACC_RTC__), let nvcc "
                       "compile it (\"compiler\": \"auto\" or \"nvcc\"), or list the folders of "
                       "its own headers in the spec's include_dirs. ";
        log.out << "Original kernel kept\n";
        log.fail(std::string("the original kernel does not compile with ") +
                 compiler_label(compiler));
        return nullptr;
    }
}

// Further GPUs of the same model verify beside the session's, each with the same problems (same
// seeds, same original, same extra sizes); every candidate is still timed on the session's.
std::unique_ptr<measure::VerifierPool> open_verifier_pool(const TuneRequest& request,
                                                          MeasuringSession& session,
                                                          TuningLog& log) {
    std::vector<std::unique_ptr<measure::RemoteSession>> peers;
    for (const auto& peer : verifying_peers(request.device, request.devices)) {
        peers.push_back(std::make_unique<measure::RemoteSession>(measure::default_worker_path(),
                                                                 peer.index, session.problem(),
                                                                 session.original_launch()));
        add_extra_sizes(*request.spec, session.problem(), session.original_launch(), *peers.back());
    }
    auto pool = std::make_unique<measure::VerifierPool>(session.worker(), std::move(peers));
    for (const std::string& why : pool->start()) log.line() << "not verifying on " << why << "\n";
    return pool;
}

// What the search found, and the tree when the transformations ran.
struct Searched {
    search::Result result;
    std::optional<search::TreeResult> tree;
    nlohmann::json llm_record;
};

// With the default strategy the parameter search takes its share of the budget, then the
// transformation tree starts from its best with what is left.
Searched search_variants(const TuneRequest& request, MeasuringSession& session,
                         CandidateEvaluator& evaluator, const search::Space& space,
                         TuningLog& log) {
    const search::Budget& budget = request.budget;
    const std::size_t valid = space.enumerate_valid().size();
    const bool transform = transformations_enabled(budget);
    log.line() << "tuning on " << request.device.name << " (device " << request.device.index
               << "), budget " << budget.evaluations << " evaluations / " << budget.seconds << " s"
               << (budget.stop_when_converged
                       ? " (fitted to the space of " + std::to_string(valid) + " configurations" +
                             (transform ? ", " + std::to_string(kFittedTreeEvaluations) +
                                              " of them for the transformation tree"
                                        : std::string()) +
                             "; stops once converged)"
                       : "")
               << "\n"
               << std::flush;
    auto progress = [&](const search::Result& so_far) {
        log.line() << so_far.trace.size() << "/"
                   << std::min<std::size_t>(so_far.space_size,
                                            static_cast<std::size_t>(budget.evaluations))
                   << " variants (" << so_far.strategy << " of " << so_far.space_size << ")";
        if (so_far.best && so_far.baseline && so_far.trace[*so_far.baseline].outcome.ok) {
            const auto& best = so_far.trace[*so_far.best];
            log.out << ", best " << base::format::milliseconds(best.outcome.median_ms) << " ("
                    << std::setprecision(3)
                    << so_far.trace[*so_far.baseline].outcome.median_ms / best.outcome.median_ms
                    << "x) " << search::format_candidate(best.candidate);
        }
        log.out << "\n" << std::flush;
    };
    search::Budget parameter_budget = budget;
    if (transform) {
        parameter_budget.evaluations = parameter_evaluations(budget, valid);
        parameter_budget.seconds = budget.seconds * kParameterShare;
    }
    Searched searched{search::run_search(space, evaluator, parameter_budget, progress), {}, {}};
    search::Result& result = searched.result;
    const int left = budget.evaluations - static_cast<int>(result.trace.size());
    if (!transform || left <= 0 || budget.seconds <= result.wall_s) return searched;
    search::Budget tree_budget = budget;
    tree_budget.evaluations = left;
    tree_budget.seconds = budget.seconds - result.wall_s;
    // The model that joins the tree (LLM proposals, the LLM judge); null: rules only.
    std::unique_ptr<llm::BudgetedChat> chat;
    try {
        if (request.llm.enabled())
            chat = llm::open_chat(request.llm, request.cache_root, request.seeds,
                                  [&](const std::string& note) { log.line() << note << "\n"; });
    } catch (const llm::LlmError& e) {
        log.line() << "warning: no LLM in the tree: " << e.what() << "\n";
    }
    searched.tree = run_transformations(
        {request.spec, &request.device, &session.worker(), &evaluator, &space, &result, tree_budget,
         session.scratch(), request.cache_root, chat.get(), &searched.llm_record},
        log.out);
    if (searched.tree) {
        result = merge_results(std::move(result), *searched.tree);
        result.strategy += " + transformations";
    }
    return searched;
}

// The manifest of the entry the winner becomes: what was timed, where, how it was found.
cache::EntryManifest entry_manifest(const TuneRequest& request, const MeasuringSession& session,
                                    const Searched& searched, const compile::CompileResult& cubin,
                                    const identity::CompilerChoice& compiler,
                                    const std::vector<int>& devices_used,
                                    const Throughput& throughput) {
    const spec::Spec& spec = *request.spec;
    const search::Result& result = searched.result;
    const auto& baseline = result.trace.at(*result.baseline);
    const auto& best = result.trace.at(*result.best);
    cache::EntryManifest m;
    m.schema = cache::kSchemaVersion;
    m.name = spec.name;
    m.kernel = spec.kernel;
    m.lowered_name = cubin.lowered_name;
    m.arch = identity::arch_name(request.device.arch);
    m.winner = best.candidate;
    m.default_parameters = spec.default_config();
    m.time_ms = measured_time(best.outcome);
    m.original_time_ms = measured_time(baseline.outcome);
    m.speedup = baseline.outcome.median_ms / best.outcome.median_ms;
    m.device = {request.device.name, request.device.arch, request.device.sms,
                request.device.driver};
    m.devices = devices_used;
    m.nvrtc_version = compile::nvrtc_version();
    m.compiler_backend = compile::to_string(compiler.backend);
    m.compiler_version = compile::compiler_version(compiler.backend);
    m.optiml_version = identity::kVersion;
    m.created = utc_now();
    m.key_inputs = request.key_summary;
    m.verification = verification_json(spec, session.problem());
    m.timing = timing_manifest(spec, baseline.outcome, best.outcome);
    m.search.strategy = result.strategy;
    m.search.space_size = static_cast<long long>(result.space_size);
    m.search.evaluations = static_cast<int>(result.trace.size());
    for (const auto& item : result.trace) m.search.correct += item.outcome.ok ? 1 : 0;
    m.search.wall_s = result.wall_s;
    m.search.stopped_by_time = result.stopped_by_time;
    m.search.stop_reason = result.stop_reason;
    m.search.budget_fitted = request.budget.stop_when_converged;
    m.search.throughput = to_json(throughput);
    m.search.budget_evaluations = request.budget.evaluations;
    m.search.budget_seconds = request.budget.seconds;
    m.search.budget_strategy = request.budget.strategy;
    m.trace = trace_json(result);
    m.files = {{"cubin", "kernel.cubin"}, {"ptx", "kernel.ptx"}};
    return m;
}

// A derived winner's text; the tree for `optiml explain`, with the text of every source on the
// winning path so it can show each step as a diff.
void add_derivation(const Searched& searched, const CandidateEvaluator& evaluator,
                    cache::Entry& entry, cache::EntryManifest& manifest) {
    const search::Candidate& best = searched.result.trace.at(*searched.result.best).candidate;
    if (!best.is_original_source()) {
        entry.files["kernel.cu"] = evaluator.sources().text(best.source_id);
        manifest.files["source"] = "kernel.cu";
    }
    if (!searched.tree) return;
    const search::TreeResult& tree = *searched.tree;
    manifest.search.tree = search::write_tree(tree);
    if (!searched.llm_record.is_null())
        llm::attach_record(manifest.search.tree, searched.llm_record);
    if (best.is_original_source()) return;
    // Roles "path_source_<step>" (the manifest's "files" maps roles to single names).
    for (std::size_t step = 0; step < tree.winning_path.size(); ++step) {
        const std::string& source =
            tree.nodes.at(tree.winning_path[step]).proposal.candidate.source_id;
        const std::string file = search::path_source_file(source);
        if (entry.files.contains(file)) continue;
        entry.files[file] = evaluator.sources().text(source);
        manifest.files["path_source_" + std::to_string(step)] = file;
    }
}

// The profiler's evidence on the original and the winner, unless $OPTIML_PROFILE is "0".
void add_evidence(const TuneRequest& request, MeasuringSession& session,
                  CandidateEvaluator& evaluator, const search::Result& result, TuningLog& log,
                  cache::Entry& entry, cache::EntryManifest& manifest) {
    const char* profile_env = std::getenv("OPTIML_PROFILE");
    if (profile_env && std::string(profile_env) == "0") return;
    auto evidence = collect_tuning_evidence(
        {request.spec, &request.device, &session.worker(), &evaluator, &result,
         session.original_launch(), session.scratch(), request.cache_root},
        log.out);
    if (!evidence) return;
    entry.files["evidence.json"] = evidence->json.dump(2) + "\n";
    entry.files["evidence.md"] = evidence->markdown;
    manifest.files["evidence"] = "evidence.json";
    manifest.files["evidence_markdown"] = "evidence.md";
    manifest.evidence = evidence->summary;
}

void log_done(const cache::EntryManifest& manifest, const search::Result& result,
              const Throughput& throughput, TuningLog& log) {
    const auto rounded = [](double value) { return std::to_string(std::lround(value)); };
    log.line() << "done: " << entry_summary(manifest) << "; " << result.trace.size()
               << " evaluations in " << std::setprecision(3) << result.wall_s << " s ("
               << rounded(throughput.evaluations_per_minute) << "/min, "
               << rounded(throughput.compiles_per_minute) << " compiles/min, "
               << throughput.image_cache_hits << " images from the cache; waiting for compiles "
               << rounded(100.0 * throughput.compile_fraction) << "% of the time, workers busy "
               << rounded(100.0 * throughput.worker_busy_fraction)
               << "%); stopped: " << result.stop_reason << "\n";
}

}  // namespace

std::optional<cache::Entry> run_tuning(const TuneRequest& request, std::ostream& log_stream,
                                       std::string* failure) {
    const spec::Spec& spec = *request.spec;
    const int arch = request.device.arch;
    TuningLog log{log_stream, "optiml: " + spec.name + ": " + identity::arch_name(arch) + ": ",
                  failure};

    const identity::CompilerChoice compiler = identity::choose_compiler(spec, arch);
    log_compiler_choice(compiler, log);
    const std::unique_ptr<MeasuringSession> session = open_session(request, compiler, log);
    if (!session) return std::nullopt;
    const std::unique_ptr<measure::VerifierPool> pool = open_verifier_pool(request, *session, log);
    const std::vector<int> devices_used = pool->devices();

    CandidateEvaluator evaluator(spec, arch, session->worker(), session->scratch(),
                                 measure::make_timing(spec));
    evaluator.set_reverify_seed(session->problem().seed_base + 1000);
    std::optional<compile::ImageCache> images;
    if (!request.cache_root.empty()) {
        images.emplace(compile::image_cache_dir(request.cache_root));
        evaluator.set_image_cache(&*images);
    }
    if (pool->size() > 1) {
        evaluator.set_verifier_pool(pool.get());
        std::string list;
        for (const int device : devices_used)
            list += (list.empty() ? "" : ",") + std::to_string(device);
        log.line() << pool->size() << " GPUs verify (devices " << list << "); device "
                   << request.device.index << " times every variant\n";
    }
    if (compiler.backend == compile::Backend::Nvcc)
        log_device_only(device_only_plan(spec, evaluator.sources(), arch), log);
    const search::Space space = tuning_space(spec);
    const Searched searched = search_variants(request, *session, evaluator, space, log);
    const search::Result& result = searched.result;

    const auto& baseline = result.trace.at(*result.baseline);
    if (!baseline.outcome.ok) {
        log.line() << "the default configuration fails (" << baseline.outcome.status << ": "
                   << baseline.outcome.message << "). Original kernel kept\n";
        return log.fail("the default configuration fails (" + baseline.outcome.status + ")");
    }
    // What ships is built from the winner's exact source, options and parameters.
    const search::Candidate& winner = result.trace.at(*result.best).candidate;
    const compile::CompileResult* cubin = evaluator.compiled(winner);
    const auto ptx = compile::compile(
        make_compile_request(spec, winner, evaluator.sources(), arch, compile::Output::Ptx));
    if (!cubin || !ptx.ok) {
        log.line() << "could not rebuild the winner's PTX; original kernel kept\n";
        return log.fail("could not rebuild the winner's PTX");
    }

    const Throughput throughput =
        summarize_throughput(result, static_cast<int>(devices_used.size()));
    cache::Entry entry;
    entry.key = request.key;
    entry.files["kernel.cubin"] = cubin->binary;
    entry.files["kernel.ptx"] = ptx.binary;
    cache::EntryManifest manifest =
        entry_manifest(request, *session, searched, *cubin, compiler, devices_used, throughput);
    add_derivation(searched, evaluator, entry, manifest);
    add_evidence(request, *session, evaluator, result, log, entry, manifest);
    ProblemTuningResult sizes =
        tune_problems(request, winner, evaluator.sources(), log.out, log.prefix);
    manifest.sizes = std::move(sizes.record);
    entry.files.merge(sizes.files);
    manifest.files.merge(sizes.roles);
    log_done(manifest, result, throughput, log);
    entry.manifest = cache::to_json(manifest);
    return entry;
}

}  // namespace optiml::tune
