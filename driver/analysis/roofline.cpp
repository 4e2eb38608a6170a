#include "driver/analysis/roofline.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "driver/analysis/analysis_error.h"
#include "driver/base/format.h"

namespace optiml::analysis {

namespace {

[[noreturn]] void reject_ceiling(const std::string& field, const std::string& what,
                                 const std::string& expected) {
    throw AnalysisError("roofline: " + field + ": " + what + "; expected " + expected);
}

void require_positive(double value, const std::string& field, const std::string& fix) {
    if (!std::isfinite(value) || value <= 0.0) {
        reject_ceiling(field, "is " + base::format::number(value),
                       "a finite number above 0 (" + fix + ")");
    }
}

void require_non_negative(double value, const std::string& field) {
    if (!std::isfinite(value) || value < 0.0) {
        reject_ceiling(field, "is " + base::format::number(value), "a finite number >= 0");
    }
}

void require_non_negative(const std::optional<double>& value, const std::string& field) {
    if (value) require_non_negative(*value, field);
}

void validate(const KernelCounters& counters, const DeviceCeilings& ceilings) {
    require_positive(counters.duration_s, "counters.duration_s", "the measured kernel time");
    require_non_negative(counters.dram_bytes, "counters.dram_bytes");
    require_non_negative(counters.sm_throughput_pct, "counters.sm_throughput_pct");
    require_non_negative(counters.dram_throughput_pct, "counters.dram_throughput_pct");
    require_non_negative(counters.l1tex_throughput_pct, "counters.l1tex_throughput_pct");
    require_positive(ceilings.dram_bytes_per_s, "ceilings.dram_bytes_per_s",
                     "run the bandwidth calibration for this device");
    for (const auto& [precision, flops] : counters.flops) {
        require_non_negative(flops, "counters.flops." + precision);
        if (flops == 0.0) continue;
        const auto peak = ceilings.flops_per_s.find(precision);
        if (peak == ceilings.flops_per_s.end()) {
            reject_ceiling("ceilings.flops_per_s." + precision,
                           "missing, but the kernel counts " + base::format::number(flops) + " " +
                               precision + " FLOPs",
                           "a calibrated peak for every precision the kernel uses");
        }
        require_positive(peak->second, "ceilings.flops_per_s." + precision,
                         "run the compute calibration for this device");
    }
}

// The precision whose FLOPs would take longest at their own peak: it sets the compute roof.
struct ComputeRoof {
    std::string precision;
    double flops = 0.0;
    double peak = 0.0;
    double seconds = 0.0;
};

ComputeRoof dominant_compute(const KernelCounters& counters, const DeviceCeilings& ceilings) {
    ComputeRoof best;
    for (const auto& [precision, flops] : counters.flops) {
        if (flops <= 0.0) continue;
        const double peak = ceilings.flops_per_s.at(precision);
        const double seconds = flops / peak;
        if (best.precision.empty() || seconds > best.seconds) {
            best = {precision, flops, peak, seconds};
        }
    }
    return best;
}

struct Utilization {
    double value = 0.0;
    std::string limiter;
};

// The largest of the candidates; ties keep the earlier (roofline-based) one.
Utilization largest(std::initializer_list<std::pair<std::optional<double>, const char*>> items) {
    Utilization best;
    for (const auto& [value, limiter] : items) {
        if (value && (best.limiter.empty() || *value > best.value)) best = {*value, limiter};
    }
    return best;
}

std::optional<double> from_pct(const std::optional<double>& pct) {
    if (!pct) return std::nullopt;
    return *pct / 100.0;
}

std::string limiter_phrase(const std::string& limiter, const RooflineVerdict& verdict) {
    const std::string memory = base::format::percent(verdict.memory_utilization);
    const std::string compute = base::format::percent(verdict.compute_utilization);
    if (limiter == "dram_roof") return "DRAM traffic runs at " + memory + " of the bandwidth roof";
    if (limiter == "compute_roof")
        return verdict.precision + " arithmetic runs at " + compute + " of its peak";
    if (limiter == "dram_throughput") return "the DRAM unit is " + memory + " busy";
    if (limiter == "l1tex_throughput")
        return "the L1/TEX unit (shared memory included) is " + memory + " busy";
    return "the SM is " + compute + " busy";
}

std::string intensity_phrase(const RooflineVerdict& verdict) {
    if (!verdict.arithmetic_intensity) {
        return verdict.precision.empty() ? "no DRAM traffic and no floating-point work"
                                         : "no DRAM traffic";
    }
    if (verdict.precision.empty()) return "no floating-point work";
    std::string phrase = "arithmetic intensity " +
                         base::format::number(*verdict.arithmetic_intensity) + " FLOP/byte (" +
                         verdict.precision + ")";
    if (verdict.ridge_point) {
        phrase +=
            *verdict.arithmetic_intensity < *verdict.ridge_point ? ", below" : ", at or above";
        phrase += " the ridge point of " + base::format::number(*verdict.ridge_point);
    }
    return phrase;
}

std::string explain(const RooflineVerdict& verdict) {
    std::string sentence;
    if (verdict.bound == Bound::Latency) {
        sentence =
            "Latency-bound: neither memory (" + base::format::percent(verdict.memory_utilization) +
            " of its ceiling) nor compute (" + base::format::percent(verdict.compute_utilization) +
            ") reaches " + base::format::percent(kNearCeiling) +
            ", so the time goes to waiting (latency, too little parallelism or launch "
            "overhead) rather than to a saturated unit, with " +
            intensity_phrase(verdict);
    } else {
        sentence =
            std::string(verdict.bound == Bound::Memory ? "Memory-bound: " : "Compute-bound: ") +
            limiter_phrase(verdict.limiter, verdict) + ", with " + intensity_phrase(verdict);
    }
    if (verdict.time_at_roof_s > 0.0) {
        sentence += "; at the roof it would take " + base::format::seconds(verdict.time_at_roof_s) +
                    " instead of " + base::format::seconds(verdict.measured_s);
    }
    return sentence + ".";
}

}  // namespace

std::string_view to_string(Bound bound) {
    switch (bound) {
        case Bound::Memory:
            return "memory-bound";
        case Bound::Compute:
            return "compute-bound";
        case Bound::Latency:
            return "latency-bound";
    }
    return "latency-bound";
}

std::optional<Bound> bound_from_string(std::string_view text) {
    for (Bound bound : {Bound::Memory, Bound::Compute, Bound::Latency}) {
        if (text == to_string(bound)) return bound;
    }
    return std::nullopt;
}

RooflineVerdict classify(const KernelCounters& counters, const DeviceCeilings& ceilings) {
    validate(counters, ceilings);
    const ComputeRoof compute = dominant_compute(counters, ceilings);
    const double bandwidth = ceilings.dram_bytes_per_s;
    const double t_mem = counters.dram_bytes / bandwidth;

    RooflineVerdict verdict;
    verdict.precision = compute.precision;
    verdict.measured_s = counters.duration_s;
    verdict.achieved_bytes_per_s = counters.dram_bytes / counters.duration_s;
    verdict.achieved_flops_per_s = compute.flops / counters.duration_s;
    if (counters.dram_bytes > 0.0)
        verdict.arithmetic_intensity = compute.flops / counters.dram_bytes;
    if (!compute.precision.empty()) {
        verdict.ridge_point = compute.peak / bandwidth;
        verdict.attainable_flops_per_s =
            verdict.arithmetic_intensity
                ? std::min(compute.peak, *verdict.arithmetic_intensity * bandwidth)
                : compute.peak;
    }

    verdict.time_at_roof_s = std::max(t_mem, compute.seconds);
    if (verdict.time_at_roof_s > 0.0)
        verdict.roof = t_mem >= compute.seconds ? "dram" : compute.precision;
    verdict.fraction_of_roof = verdict.time_at_roof_s / counters.duration_s;
    verdict.distance_s = counters.duration_s - verdict.time_at_roof_s;
    verdict.distance_fraction = 1.0 - verdict.fraction_of_roof;

    const Utilization memory =
        largest({{t_mem / counters.duration_s, "dram_roof"},
                 {from_pct(counters.dram_throughput_pct), "dram_throughput"},
                 {from_pct(counters.l1tex_throughput_pct), "l1tex_throughput"}});
    const Utilization arithmetic =
        largest({{compute.seconds / counters.duration_s, "compute_roof"},
                 {from_pct(counters.sm_throughput_pct), "sm_throughput"}});
    verdict.memory_utilization = memory.value;
    verdict.compute_utilization = arithmetic.value;
    if (std::max(memory.value, arithmetic.value) < kNearCeiling) {
        verdict.bound = Bound::Latency;
    } else if (memory.value >= arithmetic.value) {
        verdict.bound = Bound::Memory;
        verdict.limiter = memory.limiter;
    } else {
        verdict.bound = Bound::Compute;
        verdict.limiter = arithmetic.limiter;
    }
    verdict.explanation = explain(verdict);
    return verdict;
}

}  // namespace optiml::analysis
