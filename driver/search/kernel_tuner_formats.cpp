// Kernel Tuner's recordings: its cache JSON files ("tune_params_keys", "tune_params", "cache":
// {"16,1": {"block_size_x": 16, ..., "time": 0.12, "times": [...]}}, a failure's time being an
// error string) and T4 results files ("schema_version", "results": [{"configuration",
// "invalidity", "measurements", "times"}]). Kernel Tuner's parameter values may be any JSON
// scalar; OptiML's are integers, so a value that is not an integer stands for its index in
// tune_params (booleans: 0 and 1). Times are in ms; T4 measurements in s or us are converted.
#include <algorithm>
#include <cmath>

#include "driver/search/detail/recording_json.h"

namespace optiml::search::detail {
namespace {

constexpr const char* kKernelTunerErrors[] = {"InvalidConfig", "CompilationFailedConfig",
                                              "RuntimeFailedConfig"};

std::int64_t parameter_value(const nlohmann::json& value, const nlohmann::json* declared,
                             const JsonPath& path) {
    if (value.is_number_integer()) return path.integer(value, "an integer within 64 bits");
    if (value.is_boolean()) return value.get<bool>() ? 1 : 0;
    if (declared && declared->is_array())
        for (std::size_t i = 0; i < declared->size(); ++i)
            if ((*declared)[i] == value) return static_cast<std::int64_t>(i);
    path.fail_got(value, "an integer, a boolean, or one of the parameter's tune_params values");
}

void set_spread(const nlohmann::json& entry, const JsonPath& path, Outcome& outcome) {
    outcome.min_ms = outcome.max_ms = outcome.median_ms;
    const auto times = entry.find("times");
    if (times == entry.end()) return;
    const JsonPath at = path.field("times");
    at.array(*times, "an array of times in ms");
    for (std::size_t i = 0; i < times->size(); ++i) {
        const double t = at.index(i).number((*times)[i], "a time in ms");
        outcome.min_ms = i == 0 ? t : std::min(outcome.min_ms, t);
        outcome.max_ms = i == 0 ? t : std::max(outcome.max_ms, t);
    }
    outcome.runs = static_cast<int>(times->size());
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The objective's measurement (objectives[0], else "time") in ms, else the median of
// times.runtimes.
double t4_time(const nlohmann::json& row, const JsonPath& at) {
    std::string objective = "time";
    if (const auto objectives = row.find("objectives");
        objectives != row.end() && objectives->is_array() && !objectives->empty() &&
        (*objectives)[0].is_string())
        objective = (*objectives)[0].get<std::string>();
    if (const auto measurements = row.find("measurements");
        measurements != row.end() && measurements->is_array()) {
        for (std::size_t m = 0; m < measurements->size(); ++m) {
            const nlohmann::json& measurement = (*measurements)[m];
            if (!measurement.is_object()) continue;
            const JsonPath path = at.field("measurements").index(m);
            if (path.optional_string(measurement, "name", "the measurement's name") != objective)
                continue;
            const JsonPath value = path.field("value");
            const double number =
                value.number(value.member(measurement, "value", "a number"), "a time (number)");
            // Absent or "" (as published T4 files have it): the file's default, ms.
            const char* const units = "\"ms\", \"s\", \"us\" or \"\" (ms)";
            std::string unit = measurement.contains("unit")
                                   ? path.field("unit").string(measurement["unit"], units)
                                   : "";
            if (unit.empty()) unit = "ms";
            if (unit == "s") return number * 1e3;
            if (unit == "us") return number * 1e-3;
            if (unit != "ms") path.field("unit").fail_got(measurement["unit"], units);
            return number;
        }
    }
    const JsonPath runtimes = at.field("times").field("runtimes");
    const auto times = row.find("times");
    if (times == row.end() || !times->is_object() || !times->contains("runtimes"))
        runtimes.fail("missing (and no measurement named \"" + objective + "\")",
                      "the objective's measurement or times.runtimes in ms");
    const auto& list = runtimes.array((*times)["runtimes"], "an array of times in ms");
    std::vector<double> values;
    for (std::size_t i = 0; i < list.size(); ++i)
        values.push_back(runtimes.index(i).number(list[i], "a time in ms"));
    if (values.empty()) runtimes.fail("got an empty array", "at least one time in ms");
    return median(std::move(values));
}

}  // namespace

Recording read_kernel_tuner_cache(const nlohmann::json& json, const JsonPath& root) {
    Recording recording;
    recording.format = "kernel-tuner-cache";
    recording.kernel = root.optional_string(json, "kernel_name", "the kernel's name");
    recording.device = root.optional_string(json, "device_name", "the device's name");
    const JsonPath keys_path = root.field("tune_params_keys");
    const auto& keys = keys_path.array(json["tune_params_keys"], "an array of parameter names");
    std::vector<std::string> names;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        names.push_back(keys_path.index(i).string(keys[i], "a parameter name"));
        if (std::find(names.begin(), names.end() - 1, names.back()) != names.end() - 1)
            keys_path.index(i).fail_got(keys[i], "a parameter name not given before");
    }
    const nlohmann::json* declared = nullptr;
    if (const auto params = json.find("tune_params"); params != json.end())
        declared = &root.field("tune_params").object(*params, "an object of value arrays");
    if (declared)
        for (const std::string& name : names)
            if (const auto values = declared->find(name);
                values != declared->end() && values->is_array())
                for (std::size_t i = 0; i < values->size(); ++i)
                    if (const nlohmann::json& value = (*values)[i];
                        !value.is_number_integer() && !value.is_boolean())
                        recording.value_names[name][value.is_string() ? value.get<std::string>()
                                                                      : value.dump()] =
                            static_cast<std::int64_t>(i);

    const JsonPath cache = root.field("cache");
    const auto& entries = cache.object(json["cache"], "an object of measured configurations");
    if (entries.empty()) cache.fail("got an empty object", "measured configurations");
    for (const auto& [key, entry] : entries.items()) {
        const JsonPath at = cache.key(key);
        at.object(entry, "an object with the parameters' values and time");
        Config config;
        for (const std::string& name : names)
            config[name] =
                parameter_value(at.member(entry, name, "the value of parameter " + name),
                                declared && declared->contains(name) ? &(*declared)[name] : nullptr,
                                at.field(name));
        const char* const time_expected = "a number or a Kernel Tuner error string";
        const auto& time = at.member(entry, "time", time_expected);
        Outcome outcome;
        if (time.is_number()) {
            outcome.ok = true;
            outcome.status = "ok";
            outcome.median_ms = time.get<double>();
            set_spread(entry, at, outcome);
        } else if (time.is_string() &&
                   std::find(std::begin(kKernelTunerErrors), std::end(kKernelTunerErrors),
                             time.get<std::string>()) != std::end(kKernelTunerErrors)) {
            outcome.status = time.get<std::string>();
        } else {
            at.field("time").fail_got(time, time_expected);
        }
        recording.records.emplace(std::move(config), std::move(outcome));
    }
    span_space(recording, names);
    return recording;
}

Recording read_t4_results(const nlohmann::json& json, const JsonPath& root) {
    Recording recording;
    recording.format = "t4-results";
    const JsonPath results = root.field("results");
    const auto& rows = results.array(json["results"], "an array of results");
    std::vector<std::string> names;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const JsonPath at = results.index(i);
        const char* const shape = "an object with configuration, invalidity and measurements";
        at.object(rows[i], shape);
        const JsonPath configuration = at.field("configuration");
        Config config;
        for (const auto& [name, value] : configuration
                                             .object(at.member(rows[i], "configuration", shape),
                                                     "an object of parameter values")
                                             .items())
            config[name] = parameter_value(value, nullptr, configuration.field(name));
        std::vector<std::string> own;
        for (const auto& [name, value] : config) own.push_back(name);
        if (i == 0) names = own;
        if (own != names)
            configuration.fail_got(rows[i]["configuration"], "the same parameters as results[0]");

        Outcome outcome;
        const JsonPath invalidity = at.field("invalidity");
        outcome.status = invalidity.string(at.member(rows[i], "invalidity", shape),
                                           "\"correct\" or why the configuration failed");
        outcome.ok = outcome.status == "correct";
        if (outcome.ok) {
            outcome.status = "ok";
            outcome.median_ms = t4_time(rows[i], at);
            outcome.min_ms = outcome.max_ms = outcome.median_ms;
        }
        recording.records.emplace(std::move(config), std::move(outcome));
    }
    if (rows.empty()) results.fail("got an empty array", "results");
    span_space(recording, names);
    return recording;
}

}  // namespace optiml::search::detail
