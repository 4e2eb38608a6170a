#include "driver/profile/variant_evidence.h"

#include <cmath>
#include <limits>
#include <set>

#include "driver/analysis/analysis_error.h"
#include "driver/profile/metric_catalog.h"

namespace optiml::profile {

analysis::EvidenceReport evidence_report(const std::string& kernel, const std::string& device,
                                         const VariantProfile& variant,
                                         const std::optional<analysis::DeviceCeilings>& ceilings,
                                         const std::optional<analysis::CounterSelection>& counters,
                                         double stall_threshold) {
    analysis::EvidenceReport report;
    report.kernel = kernel;
    report.variant = variant.label;
    report.device = device;
    report.counters = counters;
    const ProfileResult& r = variant.result;
    if (!r.ok) {
        report.notes.push_back("not profiled: " + r.message);
        return report;
    }
    if (!r.counters_permitted) report.notes.push_back(r.counters_note);
    if (!r.unavailable.empty()) {
        std::string list;
        for (const auto& name : r.unavailable) list += (list.empty() ? "" : ", ") + name;
        report.notes.push_back("counters this GPU does not offer: " + list);
    }
    if (!r.counters.empty()) {
        const analysis::KernelCounters k = kernel_counters(r, variant.measured_ms * 1e-3);
        report.metrics = k;
        if (ceilings) {
            try {
                report.roofline = analysis::classify(k, *ceilings);
            } catch (const analysis::AnalysisError& e) {
                report.notes.push_back(std::string("no roofline verdict: ") + e.what());
            }
        }
    }
    if (r.pc_sampling_done)
        report.stalls = analysis::summarize_stalls(r.stalls, stall_threshold);
    else if (!r.pc_sampling_note.empty())
        report.notes.push_back(r.pc_sampling_note);
    return report;
}

std::optional<analysis::CounterSelection> select_over(const std::vector<VariantProfile>& variants,
                                                      analysis::CounterTable* table_out) {
    std::set<std::string> names;
    for (const auto& v : variants)
        for (const auto& [name, value] : v.result.counters) names.insert(name);
    names.erase("gpu__time_duration.sum");  // the target itself, not an explanation
    analysis::CounterTable table;
    table.counters.assign(names.begin(), names.end());
    for (const auto& v : variants) {
        if (!v.result.ok || v.result.counters.empty() || v.measured_ms <= 0.0) continue;
        std::vector<double> row;
        for (const auto& name : table.counters) {
            auto it = v.result.counters.find(name);
            row.push_back(it == v.result.counters.end() ? std::numeric_limits<double>::quiet_NaN()
                                                        : it->second);
        }
        table.rows.push_back(std::move(row));
        table.runtime_s.push_back(v.measured_ms * 1e-3);
    }
    if (table_out) *table_out = table;
    if (table.rows.size() < 3) return std::nullopt;
    return analysis::select_counters(table);
}

}  // namespace optiml::profile
