// The evidence report for people. Every item shows its id, so a proposal's citations can be
// looked up by eye.
#include <string>

#include "driver/analysis/evidence.h"
#include "driver/base/format.h"

namespace optiml::analysis {

namespace {

std::string optional_number(const std::optional<double>& value, const std::string& unit) {
    return value ? base::format::number(*value) + unit : "n/a";
}

std::string optional_percent(const std::optional<double>& pct) {
    return pct ? base::format::number(*pct) + "%" : "n/a";
}

std::string optional_integer(const std::optional<std::int64_t>& value) {
    return value ? std::to_string(*value) : "n/a";
}

std::string where(const DominantStall& stall) {
    if (stall.file.empty() && stall.line == 0) return "(no line info)";
    return "`" + stall.file + ":" + std::to_string(stall.line) + "`";
}

void append_metrics(std::string& text, const KernelCounters& metrics) {
    text += "## metrics — counters of this run\n\n| counter | value |\n|---|---|\n";
    text += "| duration | " + base::format::seconds(metrics.duration_s) + " |\n";
    text += "| DRAM bytes | " + base::format::si(metrics.dram_bytes, "B") + " |\n";
    for (const auto& [precision, flops] : metrics.flops) {
        text += "| " + precision + " FLOPs | " + base::format::si(flops, "FLOP") + " |\n";
    }
    text += "| SM throughput | " + optional_percent(metrics.sm_throughput_pct) + " |\n";
    text += "| DRAM throughput | " + optional_percent(metrics.dram_throughput_pct) + " |\n";
    text += "| L1/TEX throughput | " + optional_percent(metrics.l1tex_throughput_pct) + " |\n";
    text += "| achieved occupancy | " + optional_percent(metrics.achieved_occupancy_pct) + " |\n";
    text += "| L1/TEX sectors | " + optional_number(metrics.l1tex_sectors, "") + " |\n";
    text += "| L2 sectors | " + optional_number(metrics.l2_sectors, "") + " |\n";
    text += "| warp instructions | " + optional_number(metrics.instructions_executed, "") + " |\n";
    text += "| registers per thread | " + optional_integer(metrics.registers_per_thread) + " |\n";
    text +=
        "| local bytes per thread | " + optional_integer(metrics.local_bytes_per_thread) + " |\n";
    text += "| spill stores / loads (bytes) | " + optional_integer(metrics.spill_store_bytes) +
            " / " + optional_integer(metrics.spill_load_bytes) + " |\n";
    text += "| shared memory static / dynamic (bytes) | " +
            optional_integer(metrics.static_shared_bytes) + " / " +
            optional_integer(metrics.dynamic_shared_bytes) + " |\n\n";
}

void append_roofline(std::string& text, const RooflineVerdict& verdict) {
    text += "## roofline — " + std::string(to_string(verdict.bound)) + "\n\n" +
            verdict.explanation + "\n\n| quantity | value |\n|---|---|\n";
    text += "| arithmetic intensity | " +
            optional_number(verdict.arithmetic_intensity, " FLOP/byte") +
            (verdict.precision.empty() ? "" : " (" + verdict.precision + ")") + " |\n";
    text += "| ridge point | " + optional_number(verdict.ridge_point, " FLOP/byte") + " |\n";
    text += "| achieved | " + base::format::si(verdict.achieved_flops_per_s, "FLOP/s") + ", " +
            base::format::si(verdict.achieved_bytes_per_s, "B/s") + " DRAM |\n";
    text += "| attainable | " + base::format::si(verdict.attainable_flops_per_s, "FLOP/s") + " |\n";
    text += "| fraction of the roof | " + base::format::percent(verdict.fraction_of_roof) +
            (verdict.roof.empty() ? "" : " (" + verdict.roof + " roof)") + " |\n";
    text += "| time at the roof / measured | " + base::format::seconds(verdict.time_at_roof_s) +
            " / " + base::format::seconds(verdict.measured_s) + " |\n";
    text += "| distance to the roof | " + base::format::seconds(verdict.distance_s) + " (" +
            base::format::percent(verdict.distance_fraction) + " of the measured time) |\n";
    text += "| memory / compute utilization | " +
            base::format::percent(verdict.memory_utilization) + " / " +
            base::format::percent(verdict.compute_utilization) +
            (verdict.limiter.empty() ? "" : " (limiter: " + verdict.limiter + ")") + " |\n\n";
}

void append_stalls(std::string& text, const StallSummary& stalls) {
    text += "## Dominant stalls\n\nStalls holding more than " +
            base::format::percent(stalls.threshold) + " of " +
            base::format::count(stalls.stalled_samples) + " stalled samples (" +
            base::format::count(stalls.total_samples) + " samples in all).\n\n";
    if (stalls.dominant.empty()) {
        text += "No single line and reason dominates.\n\n";
        return;
    }
    text += "| id | where | reason | share | what it means |\n|---|---|---|---|---|\n";
    for (const DominantStall& stall : stalls.dominant) {
        text += "| " + stall.id + " | " + where(stall) + " | " + stall.reason + " | " +
                base::format::percent(stall.share) + " | " + stall.description + " |\n";
    }
    text += "\n";
}

void append_counters(std::string& text, const CounterSelection& selection) {
    text += "## Counters that explain run time\n\n";
    if (selection.counters.empty()) {
        text += (selection.note.empty() ? "No counter was selected." : selection.note) + "\n\n";
        return;
    }
    text += "Least-squares fit on " + std::to_string(selection.variants) +
            " variants: R² = " + base::format::number(selection.r_squared) + " (" +
            std::to_string(selection.runs) +
            " selection runs).\n\n"
            "| id | counter | effect | picked in | own R² | what it measures |\n"
            "|---|---|---|---|---|---|\n";
    for (const SelectedCounter& counter : selection.counters) {
        const std::string effect = counter.sign > 0   ? "more → slower"
                                   : counter.sign < 0 ? "more → faster"
                                                      : "none";
        text += "| " + counter.id + " | `" + counter.name + "` | " + effect + " (" +
                base::format::number(counter.coefficient) + ") | " +
                base::format::percent(counter.frequency) + " of runs | " +
                base::format::number(counter.unique_r_squared) + " | " + counter.description +
                " |\n";
    }
    if (!selection.dropped.empty()) {
        text += "\nLeft out of the pool: ";
        for (std::size_t i = 0; i < selection.dropped.size(); ++i) {
            text += (i == 0 ? "`" : ", `") + selection.dropped[i].name + "` (" +
                    selection.dropped[i].reason + ")";
        }
        text += ".\n";
    }
    if (!selection.note.empty()) text += "\n" + selection.note + "\n";
    text += "\n";
}

}  // namespace

std::string to_markdown(const EvidenceReport& report) {
    std::string text = "# Evidence: " + report.kernel;
    if (!report.variant.empty()) text += " (" + report.variant + ")";
    if (!report.device.empty()) text += " on " + report.device;
    text += "\n\n";
    if (report.metrics) append_metrics(text, *report.metrics);
    if (report.roofline) append_roofline(text, *report.roofline);
    if (report.stalls) append_stalls(text, *report.stalls);
    if (report.counters) append_counters(text, *report.counters);
    if (!report.notes.empty()) {
        text += "## Notes\n\n";
        for (const std::string& note : report.notes) text += "- " + note + "\n";
    }
    return text;
}

}  // namespace optiml::analysis
