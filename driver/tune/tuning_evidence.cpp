#include "driver/tune/detail/tuning_evidence.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "driver/profile/device_ceilings.h"
#include "driver/profile/metric_catalog.h"
#include "driver/profile/profile_client.h"
#include "driver/profile/variant_evidence.h"

namespace optiml::tune {
namespace fs = std::filesystem;
namespace {

constexpr auto kProfileTimeout = std::chrono::minutes(5);

std::optional<measure::LaunchSpec> launch_of(const EvidenceInputs& in,
                                             const search::Candidate& candidate,
                                             const std::string& file) {
    const compile::CompileResult* compiled = in.evaluator->compiled(candidate);
    if (!compiled || !compiled->ok) return std::nullopt;
    return tune::write_launch(*in.spec, candidate, *compiled, in.scratch / file);
}

}  // namespace

std::vector<std::size_t> spread_of_variants(const search::Result& result, std::size_t count) {
    std::vector<std::size_t> correct;
    for (std::size_t i = 0; i < result.trace.size(); ++i)
        if (result.trace[i].outcome.ok && i != result.best && i != result.baseline)
            correct.push_back(i);
    std::stable_sort(correct.begin(), correct.end(), [&](std::size_t a, std::size_t b) {
        return result.trace[a].outcome.median_ms < result.trace[b].outcome.median_ms;
    });
    if (correct.size() <= count) return correct;
    std::vector<std::size_t> chosen;
    for (std::size_t k = 0; k < count; ++k)
        chosen.push_back(correct[k * (correct.size() - 1) / (count - 1)]);
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    return chosen;
}

std::optional<TuningEvidence> collect_tuning_evidence(const EvidenceInputs& in, std::ostream& log) {
    const search::Result& result = *in.result;
    const auto& best = result.trace.at(*result.best);
    const auto& baseline = result.trace.at(*result.baseline);

    profile::ProfileRequest full;  // original and winner: the whole pool plus stall samples
    full.metrics = profile::pool_metrics();
    profile::ProfileRequest counters_only = full;
    counters_only.pc_sampling = false;

    std::vector<profile::VariantProfile> profiled;
    profiled.push_back(
        {"original",
         profile::profile_variant(*in.session, in.original_launch, full, kProfileTimeout),
         baseline.outcome.median_ms});
    if (!profiled.back().result.ok) {
        log << "optiml: " << in.spec->name << ": no evidence: " << profiled.back().result.message
            << "\n";
        return std::nullopt;
    }
    std::optional<profile::VariantProfile> winner;
    if (auto launch = launch_of(in, best.candidate, "winner.cubin"))
        winner = profile::VariantProfile{
            "tuned: " + search::format_candidate(best.candidate),
            profile::profile_variant(*in.session, *launch, full, kProfileTimeout),
            best.outcome.median_ms};
    std::vector<profile::VariantProfile> others;
    for (std::size_t index : spread_of_variants(result, kProfiledVariants)) {
        const auto& item = result.trace[index];
        auto launch = launch_of(in, item.candidate, "spread.cubin");
        if (!launch) continue;
        others.push_back(
            {search::format_candidate(item.candidate),
             profile::profile_variant(*in.session, *launch, counters_only, kProfileTimeout),
             item.outcome.median_ms});
    }

    std::vector<profile::VariantProfile> table_rows = others;
    table_rows.push_back(profiled.front());
    if (winner) table_rows.push_back(*winner);
    analysis::CounterTable table;
    std::optional<analysis::CounterSelection> selection;
    try {
        selection = profile::select_over(table_rows, &table);
    } catch (const std::exception& e) {
        log << "optiml: " << in.spec->name << ": counter selection failed: " << e.what() << "\n";
    }

    std::vector<std::string> notes;
    const auto ceilings = profile::device_ceilings(*in.device, in.cache_root, in.scratch, notes);
    auto report_of = [&](const profile::VariantProfile& v) {
        analysis::EvidenceReport report =
            profile::evidence_report(in.spec->name, in.device->name, v, ceilings, selection);
        report.notes.insert(report.notes.end(), notes.begin(), notes.end());
        return report;
    };
    const analysis::EvidenceReport before = report_of(profiled.front());
    std::optional<analysis::EvidenceReport> after;
    if (winner) after = report_of(*winner);

    // Cost: passes and wall time per profiled variant (counters, then PC sampling).
    double counters_ms = 0.0, sampling_ms = 0.0;
    int passes = 0;
    std::size_t variants = 0;
    for (const auto& v : table_rows) {
        if (!v.result.ok) continue;
        ++variants;
        counters_ms += v.result.counters_ms;
        sampling_ms += v.result.pc_sampling_ms;
        passes = std::max(passes, v.result.passes);
    }
    TuningEvidence evidence;
    evidence.summary = {
        {"profiled_variants", variants},
        {"passes", passes},
        {"counters_ms_per_variant", variants ? counters_ms / static_cast<double>(variants) : 0.0},
        {"pc_sampling_ms_total", sampling_ms},
        {"counter_selection_r_squared",
         selection ? nlohmann::json(selection->r_squared) : nlohmann::json(nullptr)},
        {"before", before.roofline ? std::string(analysis::to_string(before.roofline->bound)) : ""},
        {"after",
         after && after->roofline ? std::string(analysis::to_string(after->roofline->bound)) : ""},
    };
    nlohmann::json table_json = {
        {"counters", table.counters}, {"rows", table.rows}, {"runtime_s", table.runtime_s}};
    evidence.json = {{"schema", analysis::kEvidenceSchema},
                     {"before", analysis::to_json(before)},
                     {"after", after ? analysis::to_json(*after) : nlohmann::json(nullptr)},
                     {"selection_table", table_json},
                     {"profiling", evidence.summary}};
    evidence.markdown = analysis::to_markdown(before);
    if (after) evidence.markdown += "\n" + analysis::to_markdown(*after);
    log << "optiml: " << in.spec->name << ": evidence from " << variants << " profiled variants ("
        << passes << " passes, " << std::fixed << std::setprecision(0)
        << evidence.summary["counters_ms_per_variant"].get<double>() << " ms of counters each)";
    if (selection)
        log << ", selected counters explain R^2 = " << std::setprecision(3) << selection->r_squared;
    log << "\n";
    return evidence;
}

}  // namespace optiml::tune
