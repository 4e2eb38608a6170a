#include "driver/profile/activity_reader.h"

#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "driver/profile/profile_error.h"

namespace optiml::profile {

namespace {

using nlohmann::json;

[[noreturn]] void fail(std::string_view source, const std::string& field, const std::string& what) {
    throw ProfileError(std::string(source) + ": " + field + ": " + what);
}

// Non-negative integers: parsed text yields unsigned numbers, built documents may hold signed ones.
bool is_unsigned(const json& value) {
    return value.is_number_unsigned() ||
           (value.is_number_integer() && value.get<std::int64_t>() >= 0);
}

// `where` is a view: GCC 13's -Wdangling-reference takes a reference returned from a call with a
// temporary std::string argument (a "" here) for a dangling one.
const json& member(const json& object, const char* key, std::string_view source,
                   std::string_view where) {
    const auto found = object.find(key);
    if (found == object.end()) fail(source, std::string(where) + key, "missing");
    return *found;
}

std::uint64_t unsigned_field(const json& object, const char* key, std::string_view source,
                             const std::string& where) {
    const json& value = member(object, key, source, where);
    if (!is_unsigned(value)) fail(source, where + key, "expected an unsigned integer");
    return value.get<std::uint64_t>();
}

std::string string_field(const json& object, const char* key, std::string_view source,
                         const std::string& where) {
    const json& value = member(object, key, source, where);
    if (!value.is_string()) fail(source, where + key, "expected a string");
    return value.get<std::string>();
}

std::array<std::uint32_t, 3> dim3_field(const json& object, const char* key,
                                        std::string_view source, const std::string& where) {
    const json& value = member(object, key, source, where);
    std::array<std::uint32_t, 3> dim{};
    if (!value.is_array() || value.size() != 3) {
        fail(source, where + key, "expected an array of 3 unsigned integers");
    }
    for (std::size_t i = 0; i < 3; ++i) {
        if (!is_unsigned(value[i]) ||
            value[i].get<std::uint64_t>() > std::numeric_limits<std::uint32_t>::max()) {
            fail(source, where + key, "expected an array of 3 unsigned 32-bit integers");
        }
        dim[i] = value[i].get<std::uint32_t>();
    }
    return dim;
}

}  // namespace

activity::ActivityFile activity_from_json(const json& document, std::string_view source) {
    if (!document.is_object()) fail(source, "(top level)", "expected a JSON object");
    const std::string format = string_field(document, "format", source, "");
    if (format != activity::kFormatName) {
        fail(source, "format",
             "is \"" + format + "\"; expected \"" + std::string(activity::kFormatName) + "\"");
    }
    const std::uint64_t version = unsigned_field(document, "version", source, "");
    if (version != static_cast<std::uint64_t>(activity::kFormatVersion)) {
        fail(source, "version",
             "is " + std::to_string(version) + "; this optiml reads version " +
                 std::to_string(activity::kFormatVersion) +
                 " (use the liboptiml-activity.so installed with this optiml)");
    }
    activity::ActivityFile file;
    const json& pid = member(document, "pid", source, "");
    if (!pid.is_number_integer()) fail(source, "pid", "expected an integer");
    file.pid = pid.get<long>();
    const json& error = member(document, "error", source, "");
    if (!error.is_null() && !error.is_string()) fail(source, "error", "expected null or a string");
    if (error.is_string()) file.error = error.get<std::string>();
    file.dropped_records = unsigned_field(document, "dropped_records", source, "");
    const json& launches = member(document, "launches", source, "");
    if (!launches.is_array()) fail(source, "launches", "expected an array");
    file.launches.reserve(launches.size());
    for (std::size_t i = 0; i < launches.size(); ++i) {
        const std::string where = "launches[" + std::to_string(i) + "].";
        const json& item = launches[i];
        if (!item.is_object())
            fail(source, where.substr(0, where.size() - 1), "expected an object");
        activity::LaunchRecord launch;
        launch.name = string_field(item, "name", source, where);
        launch.demangled_name = string_field(item, "demangled", source, where);
        launch.start_ns = unsigned_field(item, "start_ns", source, where);
        launch.end_ns = unsigned_field(item, "end_ns", source, where);
        launch.grid = dim3_field(item, "grid", source, where);
        launch.block = dim3_field(item, "block", source, where);
        const std::uint64_t device = unsigned_field(item, "device", source, where);
        if (device > std::numeric_limits<std::uint32_t>::max()) {
            fail(source, where + "device", "expected a device index");
        }
        launch.device = static_cast<std::uint32_t>(device);
        file.launches.push_back(std::move(launch));
    }
    return file;
}

activity::ActivityFile read_activity_file(const std::filesystem::path& file) {
    std::ifstream stream(file, std::ios::binary);
    if (!stream) throw ProfileError(file.string() + ": cannot be opened");
    std::ostringstream text;
    text << stream.rdbuf();
    const json document = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded()) {
        throw ProfileError(file.string() +
                           ": not valid JSON (a truncated or foreign file; rerun the profile)");
    }
    return activity_from_json(document, file.string());
}

}  // namespace optiml::profile
