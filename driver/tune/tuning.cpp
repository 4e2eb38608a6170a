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

#include "driver/analysis/format.h"
#include "driver/compile/nvrtc_compiler.h"
#include "driver/llm/exchange_chain.h"
#include "driver/llm/llm_config.h"
#include "driver/llm/llm_proposer_record.h"
#include "driver/measure/verifier_pool.h"
#include "driver/search/candidate_json.h"
#include "driver/search/tree_json.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/compare_build.h"
#include "driver/tune/compiler_choice.h"
#include "driver/tune/device_selection.h"
#include "driver/tune/kernel_key.h"
#include "driver/tune/scratch_dir.h"
#include "driver/tune/throughput.h"
#include "driver/tune/timing_conditions.h"
#include "driver/tune/transform_tuning.h"
#include "driver/tune/tuning_evidence.h"
#include "driver/tune/version.h"

namespace optiml::tune {
namespace fs = std::filesystem;
namespace {

nlohmann::json time_json(const search::Outcome& o) {
    return {{"median", o.median_ms}, {"min", o.min_ms}, {"max", o.max_ms}, {"runs", o.runs}};
}

nlohmann::json trace_json(const search::Result& result) {
    nlohmann::json trace = nlohmann::json::array();
    for (const auto& item : result.trace) {
        nlohmann::json row = {{"status", item.outcome.status},
                              {"elapsed_s", item.elapsed_s},
                              {"details", item.outcome.details}};
        search::write_candidate(item.candidate, row);
        if (item.outcome.beats_incumbent) row["beats_incumbent"] = *item.outcome.beats_incumbent;
        if (item.outcome.ok)
            row["time_ms"] = time_json(item.outcome);
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

std::string entry_summary(const nlohmann::json& m) {
    std::ostringstream out;
    out << search::format_config(m.value("parameters", search::Config{})) << ", "
        << analysis::format::milliseconds(m["time_ms"].value("median", 0.0)) << " vs original "
        << analysis::format::milliseconds(m["original_time_ms"].value("median", 0.0)) << " ("
        << speedup_text(m) << ") on " << m["device"].value("name", "?");
    return out.str();
}

std::optional<cache::Entry> run_tuning(const TuneRequest& request, std::ostream& log,
                                       std::string* failure) {
    const spec::Spec& spec = *request.spec;
    const int arch = request.device.arch;
    const std::string prefix = "optiml: " + spec.name + ": " + arch_name(arch) + ": ";
    auto fail = [&](const std::string& why) {
        if (failure) *failure = why;
        return std::nullopt;
    };
    ScratchDir scratch;
    if (scratch.path().empty()) {
        log << prefix << "cannot create a scratch directory; original kernel kept\n";
        return fail("cannot create a scratch directory");
    }

    // The original: the source at the spec's defaults (each parameter defined), at the default
    // geometry. The spec's defaults are the one original: tuning, verification and the launcher's
    // nvcc fallback all use them, whatever #ifndef defaults the source has.
    // With "compiler": "auto", NVRTC first; where it cannot compile the original (host code,
    // system headers), nvcc compiles every variant instead (choose_compiler decides, as the key
    // did).
    const CompilerChoice compiler = choose_compiler(spec, arch);
    const auto original = compile::compile(
        tune::make_compile_request(spec, spec.default_config(), arch, compile::Output::Cubin));
    const std::string compiler_name = compile::to_string(compiler.backend);
    const std::string compiler_label =
        compiler.backend == compile::Backend::Nvcc ? "nvcc" : "NVRTC";
    if (!compiler.nvrtc_log.empty())
        log << prefix << "NVRTC cannot compile the original (" << first_line(compiler.nvrtc_log)
            << "); trying nvcc\n";
    if (!compiler.nvcc_flag.empty())
        log << prefix << "the target compiles the kernel with " << compiler.nvcc_flag
            << ", which NVRTC does not reproduce; nvcc compiles the original and the variants\n";
    if (!original.ok) {
        log << prefix << "the original kernel does not compile with " << compiler_label << " ("
            << spec.source_as_written << ", kernel " << spec.kernel << "):\n"
            << original.log << prefix;  // NVRTC's own log was summed up above
        if (compiler.backend == compile::Backend::Nvrtc)
            log << "NVRTC compiles device code only and has no system or host headers: keep the "
                   "kernel in a file of device code (host code and headers such as <stdio.h> or "
                   "<assert.h> guarded by #ifndef __CUDACC_RTC__), let nvcc compile it "
                   "(\"compiler\": \"auto\" or \"nvcc\"), or list the folders of its own "
                   "headers in the spec's include_dirs. ";
        log << "Original kernel kept\n";
        return fail("the original kernel does not compile with " + compiler_label);
    }
    log << prefix << compiler_label << " compiles the variants\n";
    const measure::LaunchSpec original_launch = tune::write_launch(
        spec, spec.default_config(), original, scratch.path() / "original.cubin");

    // Fresh inputs for every tuning run: a variant cannot be fitted to inputs it has seen.
    measure::Problem problem = measure::make_problem(spec);
    problem.seed_base = std::random_device{}() % 1000000;
    build_host_functions(spec, request.host_compiler, scratch.path() / "host_functions", problem);
    measure::RemoteSession session(measure::default_worker_path(), request.device.index, problem,
                                   original_launch);
    tune::add_extra_sizes(spec, problem, original_launch, session);
    try {
        session.start();
    } catch (const std::exception& e) {
        log << prefix << e.what() << "; original kernel kept\n";
        return fail(e.what());
    }

    // Further GPUs of the same model verify beside this one, each with the same problems (same
    // seeds, same original, same extra sizes); every candidate is still timed here.
    std::vector<std::unique_ptr<measure::RemoteSession>> peers;
    for (const auto& peer : verifying_peers(request.device, request.devices)) {
        peers.push_back(std::make_unique<measure::RemoteSession>(
            measure::default_worker_path(), peer.index, problem, original_launch));
        tune::add_extra_sizes(spec, problem, original_launch, *peers.back());
    }
    measure::VerifierPool pool(session, std::move(peers));
    for (const std::string& why : pool.start()) log << prefix << "not verifying on " << why << "\n";
    const std::vector<int> devices_used = pool.devices();

    tune::CandidateEvaluator evaluator(spec, arch, session, scratch.path(),
                                       measure::make_timing(spec));
    evaluator.set_reverify_seed(problem.seed_base + 1000);
    std::optional<compile::ImageCache> images;
    if (!request.cache_root.empty()) {
        images.emplace(compile::image_cache_dir(request.cache_root));
        evaluator.set_image_cache(&*images);
    }
    if (pool.size() > 1) {
        evaluator.set_verifier_pool(&pool);
        std::string list;
        for (const int device : devices_used)
            list += (list.empty() ? "" : ",") + std::to_string(device);
        log << prefix << pool.size() << " GPUs verify (devices " << list << "); device "
            << request.device.index << " times every variant\n";
    }
    const search::Space space = tuning_space(spec);
    log << prefix << "tuning on " << request.device.name << " (device " << request.device.index
        << "), budget " << request.budget.evaluations << " evaluations / " << request.budget.seconds
        << " s\n"
        << std::flush;
    auto progress = [&](const search::Result& so_far) {
        log << prefix << so_far.trace.size() << "/"
            << std::min<std::size_t>(so_far.space_size,
                                     static_cast<std::size_t>(request.budget.evaluations))
            << " variants (" << so_far.strategy << " of " << so_far.space_size << ")";
        if (so_far.best && so_far.baseline && so_far.trace[*so_far.baseline].outcome.ok) {
            const auto& best = so_far.trace[*so_far.best];
            log << ", best " << analysis::format::milliseconds(best.outcome.median_ms) << " ("
                << std::setprecision(3)
                << so_far.trace[*so_far.baseline].outcome.median_ms / best.outcome.median_ms
                << "x) " << search::format_candidate(best.candidate);
        }
        log << "\n" << std::flush;
    };
    // With the default strategy the parameter search takes its share of the budget, then the
    // transformation tree starts from its best with what is left.
    const bool transform = tune::transformations_enabled(request.budget);
    search::Budget parameter_budget = request.budget;
    if (transform) {
        parameter_budget.evaluations =
            parameter_evaluations(request.budget.evaluations, space.enumerate_valid().size());
        parameter_budget.seconds = request.budget.seconds * kParameterShare;
    }
    search::Result result = search::run_search(space, evaluator, parameter_budget, progress);
    std::optional<search::TreeResult> tree;
    nlohmann::json llm_record;
    const int left = request.budget.evaluations - static_cast<int>(result.trace.size());
    if (transform && left > 0 && request.budget.seconds > result.wall_s) {
        search::Budget tree_budget = request.budget;
        tree_budget.evaluations = left;
        tree_budget.seconds = request.budget.seconds - result.wall_s;
        // The model that joins the tree (LLM proposals, the LLM judge); null: rules only.
        std::unique_ptr<llm::BudgetedChat> chat;
        try {
            if (request.llm.enabled())
                chat =
                    llm::open_chat(request.llm, request.cache_root, request.seeds,
                                   [&](const std::string& note) { log << prefix << note << "\n"; });
        } catch (const llm::LlmError& e) {
            log << prefix << "warning: no LLM in the tree: " << e.what() << "\n";
        }
        tree = run_transformations(
            {&spec, &request.device, &session, &evaluator, &space, &result, tree_budget,
             scratch.path(), request.cache_root, chat.get(), &llm_record},
            log);
        if (tree) {
            result = merge_results(std::move(result), *tree);
            result.strategy += " + transformations";
        }
    }

    const auto& baseline = result.trace.at(*result.baseline);
    if (!baseline.outcome.ok) {
        log << prefix << "the default configuration fails (" << baseline.outcome.status << ": "
            << baseline.outcome.message << "). Original kernel kept\n";
        return fail("the default configuration fails (" + baseline.outcome.status + ")");
    }
    const auto& best = result.trace.at(*result.best);
    // What ships is built from the winner's exact source, options and parameters.
    const compile::CompileResult* cubin = evaluator.compiled(best.candidate);
    const auto ptx = compile::compile(tune::make_compile_request(
        spec, best.candidate, evaluator.sources(), arch, compile::Output::Ptx));
    if (!cubin || !ptx.ok) {
        log << prefix << "could not rebuild the winner's PTX; original kernel kept\n";
        return fail("could not rebuild the winner's PTX");
    }

    const Throughput throughput =
        summarize_throughput(result, static_cast<int>(devices_used.size()));
    cache::Entry entry;
    entry.key = request.key;
    entry.files["kernel.cubin"] = cubin->binary;
    entry.files["kernel.ptx"] = ptx.binary;
    int ok_count = 0;
    for (const auto& item : result.trace) ok_count += item.outcome.ok ? 1 : 0;
    entry.manifest = {
        {"schema", cache::kSchemaVersion},
        {"name", spec.name},
        {"kernel", spec.kernel},
        {"lowered_name", cubin->lowered_name},
        {"arch", arch_name(arch)},
        {"parameters", best.candidate.parameters},
        {"default_parameters", spec.default_config()},
        {"time_ms", time_json(best.outcome)},
        {"original_time_ms", time_json(baseline.outcome)},
        {"speedup", baseline.outcome.median_ms / best.outcome.median_ms},
        {"device",
         {{"name", request.device.name},
          {"arch", arch},
          {"sms", request.device.sms},
          {"driver", request.device.driver}}},
        {"devices", devices_used},
        {"nvrtc_version", compile::nvrtc_version()},
        {"compiler",
         {{"backend", compiler_name}, {"version", compile::compiler_version(compiler.backend)}}},
        {"optiml_version", kVersion},
        {"created", utc_now()},
        {"key_inputs", request.key_summary},
        {"verification", verification_json(spec, problem)},
        {"timing", timing_manifest(spec, baseline.outcome, best.outcome)},
        {"search",
         {{"strategy", result.strategy},
          {"space_size", result.space_size},
          {"evaluations", result.trace.size()},
          {"correct", ok_count},
          {"wall_s", result.wall_s},
          {"stopped_by_time", result.stopped_by_time},
          {"throughput", to_json(throughput)},
          {"budget",
           {{"evaluations", request.budget.evaluations},
            {"seconds", request.budget.seconds},
            {"strategy", request.budget.strategy}}}}},
        {"trace", trace_json(result)},
        {"files", {{"cubin", "kernel.cubin"}, {"ptx", "kernel.ptx"}}},
    };
    if (!best.candidate.is_original_source() || !best.candidate.options.empty()) {
        // A derived winner: its transformations and options in the manifest, its text shipped.
        search::write_candidate(best.candidate, entry.manifest);
        if (!best.candidate.is_original_source()) {
            entry.files["kernel.cu"] = evaluator.sources().text(best.candidate.source_id);
            entry.manifest["files"]["source"] = "kernel.cu";
        }
    }
    if (tree) {
        // The tree for `optiml explain`, and the text of every source on the winning path so it
        // can show each step as a diff.
        entry.manifest["search"]["tree"] = search::write_tree(*tree);
        if (!llm_record.is_null()) llm::attach_record(entry.manifest["search"]["tree"], llm_record);
        // Roles "path_source_<step>" (the manifest's "files" maps roles to single names).
        if (!best.candidate.is_original_source())
            for (std::size_t step = 0; step < tree->winning_path.size(); ++step) {
                const std::string& source =
                    tree->nodes.at(tree->winning_path[step]).proposal.candidate.source_id;
                const std::string file = search::path_source_file(source);
                if (entry.files.contains(file)) continue;
                entry.files[file] = evaluator.sources().text(source);
                entry.manifest["files"]["path_source_" + std::to_string(step)] = file;
            }
    }
    const char* profile_env = std::getenv("OPTIML_PROFILE");
    if (!(profile_env && std::string(profile_env) == "0")) {
        auto evidence =
            collect_tuning_evidence({&spec, &request.device, &session, &evaluator, &result,
                                     original_launch, scratch.path(), request.cache_root},
                                    log);
        if (evidence) {
            entry.files["evidence.json"] = evidence->json.dump(2) + "\n";
            entry.files["evidence.md"] = evidence->markdown;
            entry.manifest["files"]["evidence"] = "evidence.json";
            entry.manifest["files"]["evidence_markdown"] = "evidence.md";
            entry.manifest["evidence"] = evidence->summary;
        }
    }
    const auto rounded = [](double value) { return std::to_string(std::lround(value)); };
    log << prefix << "done: " << entry_summary(entry.manifest) << "; " << result.trace.size()
        << " evaluations in " << std::setprecision(3) << result.wall_s << " s ("
        << rounded(throughput.evaluations_per_minute) << "/min, "
        << rounded(throughput.compiles_per_minute) << " compiles/min, "
        << throughput.image_cache_hits << " images from the cache; waiting for compiles "
        << rounded(100.0 * throughput.compile_fraction) << "% of the time, workers busy "
        << rounded(100.0 * throughput.worker_busy_fraction) << "%)\n";
    return entry;
}

}  // namespace optiml::tune
