// OptiML's own recordings: the recording file (docs/replay.md) and a cache entry manifest's
// `trace`. Both hold rows of one shape: {"parameters", "status", "time_ms": {median, min, max,
// runs}, "message"}, read by read_row.
#include <algorithm>
#include <utility>

#include "driver/search/detail/recording_json.h"

namespace optiml::search::detail {
namespace {

constexpr const char* kRowShape =
    "an object with parameters, status and (when status is \"ok\") time_ms";

Config read_parameters(const nlohmann::json& value, const JsonPath& path) {
    Config config;
    for (const auto& [name, v] : path.object(value, "an object of parameter values").items())
        config[name] = path.field(name).integer(v, "an integer parameter value");
    return config;
}

std::pair<Config, Outcome> read_row(const nlohmann::json& row, const JsonPath& path) {
    path.object(row, kRowShape);
    const Config config =
        read_parameters(path.member(row, "parameters", kRowShape), path.field("parameters"));
    Outcome outcome;
    outcome.status = path.field("status").string(path.member(row, "status", kRowShape),
                                                 "\"ok\" or why the configuration failed");
    outcome.ok = outcome.status == "ok";
    if (const auto message = row.find("message"); message != row.end() && message->is_string())
        outcome.message = message->get<std::string>();
    if (outcome.ok) {
        const JsonPath time = path.field("time_ms");
        const auto& times = time.object(path.member(row, "time_ms", kRowShape),
                                        "an object with median, min, max and runs");
        outcome.median_ms = time.field("median").number(
            time.member(times, "median", "the median time in ms"), "the median time in ms");
        outcome.min_ms = times.contains("min")
                             ? time.field("min").number(times["min"], "a time in ms")
                             : outcome.median_ms;
        outcome.max_ms = times.contains("max")
                             ? time.field("max").number(times["max"], "a time in ms")
                             : outcome.median_ms;
        outcome.runs = times.contains("runs") ? static_cast<int>(time.field("runs").integer(
                                                    times["runs"], "a count of timed runs"))
                                              : 0;
    }
    return {config, outcome};
}

std::vector<std::string> names_of(const Config& config) {
    std::vector<std::string> names;
    for (const auto& [name, value] : config) names.push_back(name);
    return names;
}

// A candidate of a derived source or with options of its own is not a point of the parameter
// space a replay searches: its row is left out.
bool is_space_point(const nlohmann::json& row) {
    return !row.is_object() || (!row.contains("source_id") && !row.contains("options"));
}

// Every row must set exactly `names` (sorted, as a Config's keys are).
void read_rows(const nlohmann::json& rows, const JsonPath& path,
               const std::vector<std::string>& names, Recording& recording) {
    path.array(rows, "an array of measured configurations");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!is_space_point(rows[i])) continue;
        auto [config, outcome] = read_row(rows[i], path.index(i));
        if (names_of(config) != names)
            path.index(i)
                .field("parameters")
                .fail_got(rows[i]["parameters"], "a value for each of the space's parameters");
        // A recording may hold a configuration twice: the first measurement stands.
        recording.records.emplace(std::move(config), std::move(outcome));
    }
}

}  // namespace

Recording read_optiml_recording(const nlohmann::json& json, const JsonPath& root) {
    Recording recording;
    recording.format = root.field("format").string(json["format"], "\"optiml-recording\"");
    if (recording.format != "optiml-recording")
        root.field("format").fail_got(json["format"], "\"optiml-recording\"");
    const JsonPath version = root.field("version");
    if (version.integer(root.member(json, "version", "1"), "1") != 1)
        version.fail_got(json["version"], "1 (the only version so far)");
    recording.kernel = root.optional_string(json, "kernel", "the kernel's name");
    recording.device = root.optional_string(json, "device", "the device's name");

    const JsonPath space = root.field("space");
    const char* const space_shape = "an object with names, values and defaults";
    const auto& space_json = space.object(root.member(json, "space", space_shape), space_shape);
    std::vector<std::string> names;
    const JsonPath names_path = space.field("names");
    const auto& names_json = names_path.array(space.member(space_json, "names", space_shape),
                                              "an array of parameter names");
    for (std::size_t i = 0; i < names_json.size(); ++i)
        names.push_back(names_path.index(i).string(names_json[i], "a parameter name"));
    const JsonPath values_path = space.field("values");
    const auto& values_json = values_path.array(space.member(space_json, "values", space_shape),
                                                "an array of value arrays, one per name");
    if (values_json.size() != names.size())
        values_path.fail("got " + std::to_string(values_json.size()) + " value arrays for " +
                             std::to_string(names.size()) + " names",
                         "one value array per name");
    recording.space.names = names;
    for (std::size_t p = 0; p < names.size(); ++p) {
        const JsonPath at = values_path.index(p);
        std::vector<std::int64_t> values;
        for (std::size_t v = 0; v < at.array(values_json[p], "an array of integers").size(); ++v)
            values.push_back(at.index(v).integer(values_json[p][v], "an integer value"));
        recording.space.values.push_back(std::move(values));
    }
    recording.space.defaults =
        read_parameters(space.member(space_json, "defaults", space_shape), space.field("defaults"));
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    if (names_of(recording.space.defaults) != sorted)
        space.field("defaults").fail_got(space_json["defaults"], "a value for each name");
    const auto& rows = root.member(json, "records", "an array of measured configurations");
    read_rows(rows, root.field("records"), sorted, recording);
    // A value outside space.values would make its record unreachable: say so instead.
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t p = 0; p < names.size() && is_space_point(rows[i]); ++p) {
            const auto& declared = recording.space.values[p];
            const nlohmann::json& value = rows[i]["parameters"][names[p]];
            if (std::find(declared.begin(), declared.end(), value.get<std::int64_t>()) ==
                declared.end())
                root.field("records")
                    .index(i)
                    .field("parameters")
                    .field(names[p])
                    .fail_got(value, "one of space.values[" + std::to_string(p) + "]");
        }
    restrict_to_records(recording);
    return recording;
}

Recording read_optiml_manifest(const nlohmann::json& json, const JsonPath& root) {
    Recording recording;
    recording.format = "optiml-manifest";
    recording.kernel = root.optional_string(json, "name", "the kernel's name");
    if (const auto device = json.find("device"); device != json.end() && device->is_object())
        recording.device =
            root.field("device").optional_string(*device, "name", "the device's name");
    const char* const defaults_shape = "the default configuration (an object of parameter values)";
    const Config defaults = read_parameters(root.member(json, "default_parameters", defaults_shape),
                                            root.field("default_parameters"));
    const std::vector<std::string> names = names_of(defaults);
    read_rows(json["trace"], root.field("trace"), names, recording);
    if (recording.records.empty()) root.field("trace").fail("got an empty trace", "measurements");
    span_space(recording, names, defaults);
    return recording;
}

}  // namespace optiml::search::detail
