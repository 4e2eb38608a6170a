#include "cache/entry_manifest.h"

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

#include "driver/search/candidate_json.h"

namespace optiml::cache {
namespace {

template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};
template <typename T>
struct IsStringMap : std::false_type {};
template <typename T>
struct IsStringMap<std::map<std::string, T>> : std::true_type {};

// Whether every number of `value` that get<T>() would convert to an integer type fits it:
// nlohmann converts a float out of range (1e300 into an int) with undefined behaviour, and an
// integer out of range by wrapping it. Values of the wrong type are get<T>()'s to reject.
template <typename T>
bool fits(const nlohmann::json& value) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (value.is_number_unsigned())
            return value.get<std::uint64_t>() <=
                   static_cast<std::uint64_t>(std::numeric_limits<T>::max());
        if (value.is_number_integer()) {
            const auto number = value.get<std::int64_t>();
            return number >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                   (number < 0 || static_cast<std::uint64_t>(number) <=
                                      static_cast<std::uint64_t>(std::numeric_limits<T>::max()));
        }
        if (value.is_number_float()) {  // a whole number in range, as an older writer may put it
            const double number = value.get<double>();
            return std::trunc(number) == number &&
                   number >= static_cast<double>(std::numeric_limits<T>::min()) &&
                   number < std::ldexp(1.0, std::numeric_limits<T>::digits);
        }
        return true;
    } else if constexpr (IsVector<T>::value) {
        if (value.is_array())
            for (const nlohmann::json& item : value)
                if (!fits<typename T::value_type>(item)) return false;
        return true;
    } else if constexpr (IsStringMap<T>::value) {
        if (value.is_object())
            for (const nlohmann::json& item : value)
                if (!fits<typename T::mapped_type>(item)) return false;
        return true;
    } else {
        return true;
    }
}

// Reads the manifest's fields one by one, so that a wrong type names its field; every field it
// reads is marked, and what is left over goes to EntryManifest::other.
class FieldReader {
  public:
    FieldReader(const nlohmann::json& json, std::string where)
        : json_(json), where_(std::move(where)) {}

    template <typename T>
    void read(const char* field, T& out) {
        read_at(json_, field, field, out);
    }

    // A field of an object field: "device.name".
    template <typename T>
    void read_in(const char* object, const char* field, T& out) {
        const auto found = json_.find(object);
        if (found == json_.end() || found->is_null()) return;
        if (!found->is_object()) fail(object, "an object");
        read_at(*found, field, std::string(object) + "." + field, out);
    }

    void mark(const char* field) { named_.insert(field); }

    nlohmann::json unnamed() const {
        nlohmann::json other = nlohmann::json::object();
        for (const auto& [field, value] : json_.items())
            if (!named_.contains(field)) other[field] = value;
        return other;
    }

    [[noreturn]] void fail(const std::string& field, const std::string& expected) const {
        throw CacheError(where_ + ": manifest field \"" + field + "\" is not " + expected +
                         "; the entry was written by another tool or edited by hand: delete the "
                         "entry's folder (a build with a GPU tunes the kernel again; until "
                         "then the original kernel ships)");
    }

  private:
    template <typename T>
    void read_at(const nlohmann::json& object, const char* field, const std::string& path, T& out) {
        if (&object == &json_) named_.insert(field);
        const auto found = object.find(field);
        if (found == object.end() || found->is_null()) return;
        try {
            if constexpr (std::is_same_v<T, nlohmann::json>) {
                out = *found;
            } else {
                if (!fits<T>(*found)) fail(path, expected_of<T>());
                out = found->get<T>();
            }
        } catch (const nlohmann::json::exception&) {
            fail(path, expected_of<T>());
        }
    }

    template <typename T>
    static const char* expected_of() {
        if constexpr (std::is_same_v<T, std::string>) return "a string";
        if constexpr (std::is_same_v<T, bool>) return "true or false";
        if constexpr (std::is_integral_v<T>) return "an integer in range";
        if constexpr (std::is_arithmetic_v<T>) return "a number";
        return "of the expected shape";
    }

    const nlohmann::json& json_;
    std::string where_;
    std::set<std::string> named_;
};

nlohmann::json time_json(const MeasuredTime& t) {
    return {{"median", t.median}, {"min", t.min}, {"max", t.max}, {"runs", t.runs}};
}

void read_time(FieldReader& reader, const char* field, MeasuredTime& out) {
    reader.read_in(field, "median", out.median);
    reader.read_in(field, "min", out.min);
    reader.read_in(field, "max", out.max);
    reader.read_in(field, "runs", out.runs);
    reader.mark(field);
}

nlohmann::json search_json(const SearchRecord& s) {
    nlohmann::json out = {{"strategy", s.strategy},
                          {"space_size", s.space_size},
                          {"evaluations", s.evaluations},
                          {"correct", s.correct},
                          {"wall_s", s.wall_s},
                          {"stopped_by_time", s.stopped_by_time},
                          {"budget",
                           {{"evaluations", s.budget_evaluations},
                            {"seconds", s.budget_seconds},
                            {"strategy", s.budget_strategy}}}};
    if (!s.stop_reason.empty()) out["stop_reason"] = s.stop_reason;
    if (s.budget_fitted) out["budget"]["fitted"] = true;
    if (!s.throughput.is_null()) out["throughput"] = s.throughput;
    if (!s.tree.is_null()) out["tree"] = s.tree;
    return out;
}

SearchRecord read_search(const nlohmann::json& json, const std::string& where) {
    SearchRecord s;
    const auto found = json.find("search");
    if (found == json.end() || found->is_null()) return s;
    if (!found->is_object()) FieldReader(json, where).fail("search", "an object");
    FieldReader reader(*found, where + ": search");
    reader.read("strategy", s.strategy);
    reader.read("space_size", s.space_size);
    reader.read("evaluations", s.evaluations);
    reader.read("correct", s.correct);
    reader.read("wall_s", s.wall_s);
    reader.read("stopped_by_time", s.stopped_by_time);
    reader.read_in("budget", "evaluations", s.budget_evaluations);
    reader.read_in("budget", "seconds", s.budget_seconds);
    reader.read_in("budget", "strategy", s.budget_strategy);
    reader.read_in("budget", "fitted", s.budget_fitted);
    reader.read("stop_reason", s.stop_reason);
    reader.read("throughput", s.throughput);
    reader.read("tree", s.tree);
    return s;
}

}  // namespace

std::string EntryManifest::file(const std::string& role) const {
    const auto found = files.find(role);
    return found == files.end() ? std::string() : found->second;
}

nlohmann::json to_json(const EntryManifest& m) {
    nlohmann::json out = m.other.is_object() ? m.other : nlohmann::json::object();
    out["schema"] = m.schema;
    out["name"] = m.name;
    out["kernel"] = m.kernel;
    out["lowered_name"] = m.lowered_name;
    out["arch"] = m.arch;
    search::write_candidate(m.winner, out);
    out["default_parameters"] = m.default_parameters;
    out["time_ms"] = time_json(m.time_ms);
    out["original_time_ms"] = time_json(m.original_time_ms);
    out["speedup"] = m.speedup;
    out["device"] = {{"name", m.device.name},
                     {"arch", m.device.arch},
                     {"sms", m.device.sms},
                     {"driver", m.device.driver}};
    out["devices"] = m.devices;
    out["nvrtc_version"] = m.nvrtc_version;
    out["compiler"] = {{"backend", m.compiler_backend}, {"version", m.compiler_version}};
    out["optiml_version"] = m.optiml_version;
    out["created"] = m.created;
    out["search"] = search_json(m.search);
    out["files"] = m.files;
    const std::pair<const char*, const nlohmann::json*> sections[] = {
        {"key_inputs", &m.key_inputs},
        {"tuned_with_llm", &m.tuned_with_llm},
        {"verification", &m.verification},
        {"timing", &m.timing},
        {"evidence", &m.evidence},
        {"trace", &m.trace},
        {"sizes", &m.sizes}};
    for (const auto& [field, value] : sections)
        if (!value->is_null()) out[field] = *value;
    return out;
}

EntryManifest read_entry_manifest(const nlohmann::json& json, const std::string& where) {
    FieldReader reader(json, where);
    if (!json.is_object()) reader.fail("(the whole manifest)", "an object");
    EntryManifest m;
    reader.read("schema", m.schema);
    reader.read("name", m.name);
    reader.read("kernel", m.kernel);
    reader.read("lowered_name", m.lowered_name);
    reader.read("arch", m.arch);
    // Each candidate field's type checked here, where a wrong one is named; then the one
    // mapping of a candidate (search/candidate_json.h) reads them.
    search::Candidate checked;
    reader.read("parameters", checked.parameters);
    reader.read("source_id", checked.source_id);
    reader.read("transformations", checked.transformations);
    reader.read("options", checked.options);
    if (json.contains("parameters")) m.winner = search::read_candidate(json);
    reader.read("default_parameters", m.default_parameters);
    read_time(reader, "time_ms", m.time_ms);
    read_time(reader, "original_time_ms", m.original_time_ms);
    reader.read("speedup", m.speedup);
    reader.read_in("device", "name", m.device.name);
    reader.read_in("device", "arch", m.device.arch);
    reader.read_in("device", "sms", m.device.sms);
    reader.read_in("device", "driver", m.device.driver);
    reader.mark("device");
    reader.read("devices", m.devices);
    reader.read("nvrtc_version", m.nvrtc_version);
    reader.read_in("compiler", "backend", m.compiler_backend);
    reader.read_in("compiler", "version", m.compiler_version);
    reader.mark("compiler");
    reader.read("optiml_version", m.optiml_version);
    reader.read("created", m.created);
    m.search = read_search(json, where);
    reader.mark("search");
    reader.read("files", m.files);
    reader.read("key_inputs", m.key_inputs);
    reader.read("tuned_with_llm", m.tuned_with_llm);
    reader.read("verification", m.verification);
    reader.read("timing", m.timing);
    reader.read("evidence", m.evidence);
    reader.read("trace", m.trace);
    reader.read("sizes", m.sizes);
    m.other = reader.unnamed();
    return m;
}

EntryManifest read_entry_manifest(const Entry& entry) {
    const std::string where = entry.directory.empty()
                                  ? "cache entry " + entry.key
                                  : (entry.directory / "manifest.json").string();
    return read_entry_manifest(entry.manifest, where);
}

}  // namespace optiml::cache
