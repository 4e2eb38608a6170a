#include "driver/search/recording_file.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>

#include "driver/search/detail/gzip.h"
#include "driver/search/detail/recording_json.h"

namespace optiml::search {
namespace detail {

namespace {

[[noreturn]] void throw_recording_error(const std::string& message) {
    throw RecordingError(message);
}

}  // namespace

JsonPath::JsonPath(std::string file, std::string path)
    : at_(std::move(file), std::move(path), &throw_recording_error) {}

void JsonPath::fail_got(const nlohmann::json& got, const std::string& expected) const {
    std::string text = got.dump();
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    fail("got " + text, expected);
}

const nlohmann::json& JsonPath::member(const nlohmann::json& value, std::string_view name,
                                       const std::string& expected) const {
    const auto found = value.find(name);
    if (found == value.end()) field(name).fail("missing", expected);
    return *found;
}

const nlohmann::json& JsonPath::object(const nlohmann::json& value,
                                       const std::string& expected) const {
    if (!value.is_object()) fail_got(value, expected);
    return value;
}

const nlohmann::json& JsonPath::array(const nlohmann::json& value,
                                      const std::string& expected) const {
    if (!value.is_array()) fail_got(value, expected);
    return value;
}

double JsonPath::number(const nlohmann::json& value, const std::string& expected) const {
    if (!value.is_number()) fail_got(value, expected);
    return value.get<double>();
}

std::int64_t JsonPath::integer(const nlohmann::json& value, const std::string& expected) const {
    // An unsigned value beyond int64 would wrap around to a negative one.
    if (!value.is_number_integer() ||
        (value.is_number_unsigned() &&
         value.get<std::uint64_t>() > std::uint64_t{std::numeric_limits<std::int64_t>::max()}))
        fail_got(value, expected);
    return value.get<std::int64_t>();
}

std::string JsonPath::string(const nlohmann::json& value, const std::string& expected) const {
    if (!value.is_string()) fail_got(value, expected);
    return value.get<std::string>();
}

std::string JsonPath::optional_string(const nlohmann::json& object, std::string_view name,
                                      const std::string& expected) const {
    const auto found = object.find(name);
    if (found == object.end()) return "";
    return field(name).string(*found, expected);
}

void span_space(Recording& recording, std::vector<std::string> names,
                std::optional<Config> defaults) {
    Space& space = recording.space;
    std::sort(names.begin(), names.end());  // canonical order (sort_parameters)
    space.names = std::move(names);
    space.values.clear();
    for (const std::string& name : space.names) {
        std::set<std::int64_t> values;
        for (const auto& [config, outcome] : recording.records) values.insert(config.at(name));
        space.values.emplace_back(values.begin(), values.end());
    }
    restrict_to_records(recording);
    if (defaults) {
        space.defaults = *defaults;
        recording.baseline_source = BaselineSource::recording;
        return;
    }
    recording.baseline_source = BaselineSource::first_recorded;
    // The first in enumeration order (the names' order, each one's values ascending, the last
    // name varying fastest): the least record by its values in the names' order. Enumerating
    // the space instead would take as long as the product of its value counts.
    const auto before = [&](const Config& a, const Config& b) {
        for (const std::string& name : space.names)
            if (a.at(name) != b.at(name)) return a.at(name) < b.at(name);
        return false;
    };
    space.defaults = Config{};
    for (auto it = recording.records.begin(); it != recording.records.end(); ++it)
        if (it == recording.records.begin() || before(it->first, space.defaults))
            space.defaults = it->first;
}

}  // namespace detail

namespace {

// The file's bytes, inflated when they are gzip's (by their magic bytes, whatever the name).
std::string recording_text(const std::filesystem::path& file, const detail::JsonPath& root) {
    std::ifstream in(file, std::ios::binary);
    if (!in) root.fail("cannot be read", "a readable recording file");
    std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (!detail::is_gzip(bytes)) return bytes;
    try {
        return detail::gunzip(bytes);
    } catch (const std::runtime_error& e) {
        root.fail(std::string("corrupt gzip data (") + e.what() + ")",
                  "a gzipped recording as gzip writes it, or a plain JSON one");
    }
}

}  // namespace

Recording read_recording(const std::filesystem::path& file) {
    const std::string label = file.string();
    const detail::JsonPath root(label);
    const std::string text = recording_text(file, root);
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // a syntax error, a number out of range
        root.fail(std::string("not JSON (") + e.what() + ")", "a JSON recording");
    }
    const char* const formats =
        "an OptiML recording (\"format\": \"optiml-recording\"), a cache entry manifest (with "
        "\"trace\"), a Kernel Tuner cache file (with \"tune_params_keys\" and \"cache\") or T4 "
        "results (with \"schema_version\" and \"results\")";
    if (!json.is_object()) root.fail_got(json, formats);
    Recording recording;
    if (json.contains("format"))
        recording = detail::read_optiml_recording(json, root);
    else if (json.contains("trace"))
        recording = detail::read_optiml_manifest(json, root);
    else if (json.contains("tune_params_keys") && json.contains("cache"))
        recording = detail::read_kernel_tuner_cache(json, root);
    else if (json.contains("results"))
        recording = detail::read_t4_results(json, root);
    else
        root.fail("not a recording", formats);
    recording.file = label;
    sort_parameters(recording.space);
    return recording;
}

}  // namespace optiml::search
