// Evidence report <-> JSON. The field names here are the schema docs/evidence.md documents.
#include "driver/analysis/evidence.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

#include "driver/analysis/analysis_error.h"

namespace optiml::analysis {

using nlohmann::json;

namespace {

// ---- writing ----

json number_or_null(const std::optional<double>& value) {
    return value && std::isfinite(*value) ? json(*value) : json(nullptr);
}

json integer_or_null(const std::optional<std::int64_t>& value) {
    return value ? json(*value) : json(nullptr);
}

json metrics_json(const KernelCounters& metrics) {
    return {{"id", "metrics"},
            {"duration_s", metrics.duration_s},
            {"dram_bytes", metrics.dram_bytes},
            {"flops", metrics.flops},
            {"sm_throughput_pct", number_or_null(metrics.sm_throughput_pct)},
            {"dram_throughput_pct", number_or_null(metrics.dram_throughput_pct)},
            {"l1tex_throughput_pct", number_or_null(metrics.l1tex_throughput_pct)},
            {"achieved_occupancy_pct", number_or_null(metrics.achieved_occupancy_pct)},
            {"l1tex_sectors", number_or_null(metrics.l1tex_sectors)},
            {"l2_sectors", number_or_null(metrics.l2_sectors)},
            {"instructions_executed", number_or_null(metrics.instructions_executed)},
            {"registers_per_thread", integer_or_null(metrics.registers_per_thread)},
            {"local_bytes_per_thread", integer_or_null(metrics.local_bytes_per_thread)},
            {"spill_store_bytes", integer_or_null(metrics.spill_store_bytes)},
            {"spill_load_bytes", integer_or_null(metrics.spill_load_bytes)},
            {"static_shared_bytes", integer_or_null(metrics.static_shared_bytes)},
            {"dynamic_shared_bytes", integer_or_null(metrics.dynamic_shared_bytes)}};
}

json roofline_json(const RooflineVerdict& verdict) {
    return {{"id", "roofline"},
            {"verdict", std::string(to_string(verdict.bound))},
            {"limiter", verdict.limiter},
            {"precision", verdict.precision},
            {"arithmetic_intensity", number_or_null(verdict.arithmetic_intensity)},
            {"ridge_point", number_or_null(verdict.ridge_point)},
            {"roof", verdict.roof},
            {"attainable_flops_per_s", verdict.attainable_flops_per_s},
            {"achieved_flops_per_s", verdict.achieved_flops_per_s},
            {"achieved_bytes_per_s", verdict.achieved_bytes_per_s},
            {"fraction_of_roof", verdict.fraction_of_roof},
            {"time_at_roof_s", verdict.time_at_roof_s},
            {"measured_s", verdict.measured_s},
            {"distance_s", verdict.distance_s},
            {"distance_fraction", verdict.distance_fraction},
            {"memory_utilization", verdict.memory_utilization},
            {"compute_utilization", verdict.compute_utilization},
            {"explanation", verdict.explanation}};
}

json stalls_json(const StallSummary& stalls) {
    json items = json::array();
    for (const DominantStall& stall : stalls.dominant) {
        items.push_back({{"id", stall.id},
                         {"file", stall.file},
                         {"line", stall.line},
                         {"reason", stall.reason},
                         {"samples", stall.samples},
                         {"share", stall.share},
                         {"description", stall.description}});
    }
    return {{"threshold", stalls.threshold},
            {"total_samples", stalls.total_samples},
            {"stalled_samples", stalls.stalled_samples},
            {"items", items}};
}

json counters_json(const CounterSelection& selection) {
    json items = json::array();
    for (const SelectedCounter& counter : selection.counters) {
        items.push_back({{"id", counter.id},
                         {"name", counter.name},
                         {"coefficient", counter.coefficient},
                         {"sign", counter.sign},
                         {"frequency", counter.frequency},
                         {"unique_r_squared", counter.unique_r_squared},
                         {"description", counter.description}});
    }
    json dropped = json::array();
    for (const DroppedCounter& counter : selection.dropped) {
        dropped.push_back({{"name", counter.name}, {"reason", counter.reason}});
    }
    return {{"r_squared", selection.r_squared},
            {"variants", selection.variants},
            {"runs", selection.runs},
            {"note", selection.note},
            {"items", items},
            {"dropped", dropped}};
}

template <typename T, typename Write>
json section(const std::optional<T>& value, Write write) {
    return value ? write(*value) : json(nullptr);
}

// ---- reading ----

// A view of one JSON object that knows where it is, so every error names the field.
class Reader {
  public:
    Reader(const json& object, std::string source, std::string path)
        : object_(object), source_(std::move(source)), path_(std::move(path)) {
        if (!object_.is_object())
            fail(path_.empty() ? "(top level)" : path_, "is not an object", "a JSON object");
    }

    const json& raw(const std::string& key) const {
        const auto found = object_.find(key);
        if (found == object_.end())
            fail(field(key), "is missing", "the field (see docs/evidence.md)");
        return *found;
    }
    bool is_null(const std::string& key) const { return raw(key).is_null(); }
    Reader child(const std::string& key) const { return Reader(raw(key), source_, field(key)); }

    std::string text(const std::string& key) const {
        const json& value = raw(key);
        if (!value.is_string()) fail(field(key), "is " + kind(value), "a string");
        return value.get<std::string>();
    }
    double number(const std::string& key) const {
        const json& value = raw(key);
        if (!value.is_number()) fail(field(key), "is " + kind(value), "a number");
        return value.get<double>();
    }
    std::optional<double> optional_number(const std::string& key) const {
        if (is_null(key)) return std::nullopt;
        return number(key);
    }
    std::int64_t integer(const std::string& key) const {
        const json& value = raw(key);
        if (!value.is_number_integer()) fail(field(key), "is " + kind(value), "an integer");
        return value.get<std::int64_t>();
    }
    std::optional<std::int64_t> optional_integer(const std::string& key) const {
        if (is_null(key)) return std::nullopt;
        return integer(key);
    }
    std::uint64_t count(const std::string& key) const {
        const json& value = raw(key);
        if (!value.is_number_unsigned() &&
            !(value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
            fail(field(key), "is " + kind(value), "a non-negative integer");
        }
        return value.get<std::uint64_t>();
    }
    int small_integer(const std::string& key) const {
        const std::int64_t value = integer(key);
        if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
            fail(field(key), "is out of range", "an integer that fits 32 bits");
        }
        return static_cast<int>(value);
    }
    // Calls read(Reader) for each element of the array at key.
    template <typename Read>
    void each(const std::string& key, Read read) const {
        const json& items = raw(key);
        if (!items.is_array()) fail(field(key), "is " + kind(items), "an array");
        for (std::size_t i = 0; i < items.size(); ++i) {
            read(Reader(items[i], source_, field(key) + "[" + std::to_string(i) + "]"));
        }
    }
    std::map<std::string, double> number_map(const std::string& key) const {
        const json& value = raw(key);
        if (!value.is_object()) fail(field(key), "is " + kind(value), "an object of numbers");
        std::map<std::string, double> numbers;
        for (const auto& [name, item] : value.items()) {
            if (!item.is_number()) fail(field(key) + "." + name, "is " + kind(item), "a number");
            numbers[name] = item.get<double>();
        }
        return numbers;
    }

    [[noreturn]] void fail(const std::string& where, const std::string& what,
                           const std::string& expected) const {
        throw AnalysisError(source_ + ": " + where + ": " + what + "; expected " + expected);
    }
    std::string field(const std::string& key) const {
        return path_.empty() ? key : path_ + "." + key;
    }

  private:
    static std::string kind(const json& value) {
        return value.is_null() ? "null" : std::string(value.type_name());
    }

    const json& object_;
    std::string source_;
    std::string path_;
};

KernelCounters read_metrics(const Reader& in) {
    KernelCounters metrics;
    metrics.duration_s = in.number("duration_s");
    metrics.dram_bytes = in.number("dram_bytes");
    metrics.flops = in.number_map("flops");
    metrics.sm_throughput_pct = in.optional_number("sm_throughput_pct");
    metrics.dram_throughput_pct = in.optional_number("dram_throughput_pct");
    metrics.l1tex_throughput_pct = in.optional_number("l1tex_throughput_pct");
    metrics.achieved_occupancy_pct = in.optional_number("achieved_occupancy_pct");
    metrics.l1tex_sectors = in.optional_number("l1tex_sectors");
    metrics.l2_sectors = in.optional_number("l2_sectors");
    metrics.instructions_executed = in.optional_number("instructions_executed");
    metrics.registers_per_thread = in.optional_integer("registers_per_thread");
    metrics.local_bytes_per_thread = in.optional_integer("local_bytes_per_thread");
    metrics.spill_store_bytes = in.optional_integer("spill_store_bytes");
    metrics.spill_load_bytes = in.optional_integer("spill_load_bytes");
    metrics.static_shared_bytes = in.optional_integer("static_shared_bytes");
    metrics.dynamic_shared_bytes = in.optional_integer("dynamic_shared_bytes");
    return metrics;
}

RooflineVerdict read_roofline(const Reader& in) {
    RooflineVerdict verdict;
    const std::string bound = in.text("verdict");
    const auto parsed = bound_from_string(bound);
    if (!parsed) {
        in.fail(in.field("verdict"), "is \"" + bound + "\"",
                "one of memory-bound, compute-bound, latency-bound");
    }
    verdict.bound = *parsed;
    verdict.limiter = in.text("limiter");
    verdict.precision = in.text("precision");
    verdict.arithmetic_intensity = in.optional_number("arithmetic_intensity");
    verdict.ridge_point = in.optional_number("ridge_point");
    verdict.roof = in.text("roof");
    verdict.attainable_flops_per_s = in.number("attainable_flops_per_s");
    verdict.achieved_flops_per_s = in.number("achieved_flops_per_s");
    verdict.achieved_bytes_per_s = in.number("achieved_bytes_per_s");
    verdict.fraction_of_roof = in.number("fraction_of_roof");
    verdict.time_at_roof_s = in.number("time_at_roof_s");
    verdict.measured_s = in.number("measured_s");
    verdict.distance_s = in.number("distance_s");
    verdict.distance_fraction = in.number("distance_fraction");
    verdict.memory_utilization = in.number("memory_utilization");
    verdict.compute_utilization = in.number("compute_utilization");
    verdict.explanation = in.text("explanation");
    return verdict;
}

StallSummary read_stalls(const Reader& in) {
    StallSummary stalls;
    stalls.threshold = in.number("threshold");
    stalls.total_samples = in.count("total_samples");
    stalls.stalled_samples = in.count("stalled_samples");
    in.each("items", [&](const Reader& item) {
        stalls.dominant.push_back({item.text("id"), item.text("file"), item.small_integer("line"),
                                   item.text("reason"), item.count("samples"), item.number("share"),
                                   item.text("description")});
    });
    return stalls;
}

CounterSelection read_counters(const Reader& in) {
    CounterSelection selection;
    selection.r_squared = in.number("r_squared");
    selection.variants = static_cast<std::size_t>(in.count("variants"));
    selection.runs = static_cast<std::size_t>(in.count("runs"));
    selection.note = in.text("note");
    in.each("items", [&](const Reader& item) {
        SelectedCounter counter;
        counter.id = item.text("id");
        counter.name = item.text("name");
        counter.coefficient = item.number("coefficient");
        counter.sign = item.small_integer("sign");
        counter.frequency = item.number("frequency");
        counter.unique_r_squared = item.number("unique_r_squared");
        counter.description = item.text("description");
        selection.counters.push_back(std::move(counter));
    });
    in.each("dropped", [&](const Reader& item) {
        selection.dropped.push_back({item.text("name"), item.text("reason")});
    });
    return selection;
}

template <typename T, typename Read>
std::optional<T> read_section(const Reader& in, const std::string& key, Read read) {
    if (in.is_null(key)) return std::nullopt;
    return read(in.child(key));
}

}  // namespace

json to_json(const EvidenceReport& report) {
    return {{"schema", kEvidenceSchema},
            {"kernel", report.kernel},
            {"variant", report.variant},
            {"device", report.device},
            {"metrics", section(report.metrics, metrics_json)},
            {"roofline", section(report.roofline, roofline_json)},
            {"stalls", section(report.stalls, stalls_json)},
            {"counters", section(report.counters, counters_json)},
            {"notes", report.notes}};
}

EvidenceReport evidence_from_json(const json& document, std::string_view source) {
    const Reader in(document, std::string(source), "");
    const std::int64_t schema = in.integer("schema");
    if (schema != kEvidenceSchema) {
        in.fail("schema", "is " + std::to_string(schema),
                std::to_string(kEvidenceSchema) +
                    " (written by another OptiML version: regenerate the evidence with this one)");
    }
    EvidenceReport report;
    report.kernel = in.text("kernel");
    report.variant = in.text("variant");
    report.device = in.text("device");
    report.metrics = read_section<KernelCounters>(in, "metrics", read_metrics);
    report.roofline = read_section<RooflineVerdict>(in, "roofline", read_roofline);
    report.stalls = read_section<StallSummary>(in, "stalls", read_stalls);
    report.counters = read_section<CounterSelection>(in, "counters", read_counters);
    const json& notes = in.raw("notes");
    if (!notes.is_array()) in.fail("notes", "is not an array", "an array of strings");
    for (std::size_t i = 0; i < notes.size(); ++i) {
        if (!notes[i].is_string()) {
            in.fail("notes[" + std::to_string(i) + "]", "is not a string", "a string");
        }
        report.notes.push_back(notes[i].get<std::string>());
    }
    return report;
}

std::vector<std::string> evidence_ids(const EvidenceReport& report) {
    std::vector<std::string> ids;
    if (report.metrics) ids.push_back("metrics");
    if (report.roofline) ids.push_back("roofline");
    if (report.stalls) {
        for (const DominantStall& stall : report.stalls->dominant) ids.push_back(stall.id);
    }
    if (report.counters) {
        for (const SelectedCounter& counter : report.counters->counters) ids.push_back(counter.id);
    }
    return ids;
}

}  // namespace optiml::analysis
