#include "driver/profile/detail/activity_reader.h"

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

// The format name and version every file of the library starts with.
void check_format(const json& document, std::string_view source, std::string_view name,
                  int expected_version) {
    if (!document.is_object()) fail(source, "(top level)", "expected a JSON object");
    const std::string format = string_field(document, "format", source, "");
    if (format != name) {
        fail(source, "format", "is \"" + format + "\"; expected \"" + std::string(name) + "\"");
    }
    const std::uint64_t version = unsigned_field(document, "version", source, "");
    if (version != static_cast<std::uint64_t>(expected_version)) {
        fail(source, "version",
             "is " + std::to_string(version) + "; this optiml reads version " +
                 std::to_string(expected_version) +
                 " (use the liboptiml-activity.so installed with this optiml)");
    }
}

long pid_field(const json& document, std::string_view source) {
    const json& pid = member(document, "pid", source, "");
    if (!pid.is_number_integer()) fail(source, "pid", "expected an integer");
    return pid.get<long>();
}

// null or a string; "" for null.
std::string error_field(const json& object, std::string_view source, const std::string& where,
                        const char* key = "error") {
    const json& error = member(object, key, source, where);
    if (!error.is_null() && !error.is_string()) {
        fail(source, where + key, "expected null or a string");
    }
    return error.is_string() ? error.get<std::string>() : std::string();
}

const json& array_field(const json& object, const char* key, std::string_view source,
                        std::string_view where) {  // a view, as member's `where` (above)
    const json& value = member(object, key, source, where);
    if (!value.is_array()) fail(source, std::string(where) + key, "expected an array");
    return value;
}

// Calls read(item, "<key>[i].") for each element of the array `items` (at `key`), each an object.
template <typename Read>
void for_each_object(const json& items, std::string_view source, const std::string& key,
                     Read&& read) {
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string where = key + "[" + std::to_string(i) + "]";
        if (!items[i].is_object()) fail(source, where, "expected an object");
        read(items[i], where + ".");
    }
}

activity::CapturedParameter parameter_from_json(const json& item, std::string_view source,
                                                const std::string& where) {
    activity::CapturedParameter parameter;
    parameter.offset = unsigned_field(item, "offset", source, where);
    parameter.size = unsigned_field(item, "size", source, where);
    const std::optional<std::string> bytes =
        activity::from_hex(string_field(item, "bytes", source, where));
    if (!bytes || bytes->size() != parameter.size) {
        fail(source, where + "bytes",
             "expected " + std::to_string(parameter.size) + " bytes as " +
                 std::to_string(2 * parameter.size) + " hex digits (the parameter's size)");
    }
    parameter.bytes = *bytes;
    const json& allocation = member(item, "allocation", source, where);
    if (!allocation.is_null()) {
        if (!allocation.is_object()) {
            fail(source, where + "allocation", "expected null or an object");
        }
        const std::string inner = where + "allocation.";
        activity::DeviceAllocation extent;
        extent.offset = unsigned_field(allocation, "offset", source, inner);
        extent.size = unsigned_field(allocation, "size", source, inner);
        if (extent.offset >= extent.size) {
            fail(source, inner + "offset",
                 "is " + std::to_string(extent.offset) + "; expected less than the allocation's " +
                     "size, " + std::to_string(extent.size));
        }
        parameter.allocation = extent;
    }
    const json& snapshot = member(item, "snapshot", source, where);
    if (!snapshot.is_null() && !snapshot.is_string()) {
        fail(source, where + "snapshot", "expected null or a file path");
    }
    if (snapshot.is_string()) {
        if (!parameter.allocation) {
            fail(source, where + "snapshot", "a snapshot needs an allocation; expected null");
        }
        parameter.snapshot = snapshot.get<std::string>();
    }
    return parameter;
}

// A shape as the capture file writes it; `parameters`: how many the launch has.
activity::LaunchShape shape_from_json(const json& item, std::size_t parameters,
                                      std::string_view source, const std::string& where) {
    activity::LaunchShape shape;
    shape.grid = dim3_field(item, "grid", source, where);
    shape.block = dim3_field(item, "block", source, where);
    shape.shared_memory_bytes = unsigned_field(item, "shared_memory_bytes", source, where);
    shape.launches = unsigned_field(item, "launches", source, where);
    const json& values = array_field(item, "values", source, where);
    if (values.size() != parameters) {
        fail(source, where + "values",
             "has " + std::to_string(values.size()) + " entries; expected one per parameter (" +
                 std::to_string(parameters) + ")");
    }
    for (std::size_t v = 0; v < values.size(); ++v) {
        const std::string at = where + "values[" + std::to_string(v) + "]";
        if (values[v].is_null()) {
            shape.values.emplace_back();
            continue;
        }
        const std::optional<std::string> bytes =
            values[v].is_string() ? activity::from_hex(values[v].get<std::string>()) : std::nullopt;
        if (!bytes || bytes->empty()) fail(source, at, "expected null or bytes as hex digits");
        shape.values.push_back(*bytes);
    }
    return shape;
}

}  // namespace

activity::ActivityFile activity_from_json(const json& document, std::string_view source) {
    check_format(document, source, activity::kFormatName, activity::kFormatVersion);
    activity::ActivityFile file;
    file.pid = pid_field(document, source);
    file.error = error_field(document, source, "");
    file.dropped_records = unsigned_field(document, "dropped_records", source, "");
    const json& launches = array_field(document, "launches", source, "");
    file.launches.reserve(launches.size());
    for_each_object(launches, source, "launches", [&](const json& item, const std::string& where) {
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
    });
    return file;
}

activity::CaptureFile capture_from_json(const json& document, std::string_view source) {
    check_format(document, source, activity::kCaptureFormatName, activity::kCaptureFormatVersion);
    activity::CaptureFile file;
    file.pid = pid_field(document, source);
    file.error = error_field(document, source, "");
    const json& launches = array_field(document, "launches", source, "");
    for_each_object(launches, source, "launches", [&](const json& item, const std::string& where) {
        activity::CapturedLaunch launch;
        launch.name = string_field(item, "name", source, where);
        launch.demangled_name = string_field(item, "demangled", source, where);
        launch.grid = dim3_field(item, "grid", source, where);
        launch.block = dim3_field(item, "block", source, where);
        launch.shared_memory_bytes = unsigned_field(item, "shared_memory_bytes", source, where);
        launch.error = error_field(item, source, where);
        launch.snapshot_error = error_field(item, source, where, "snapshot_error");
        for_each_object(array_field(item, "parameters", source, where), source,
                        where + "parameters", [&](const json& p, const std::string& inner) {
                            launch.parameters.push_back(parameter_from_json(p, source, inner));
                        });
        // Absent in files of an earlier OptiML: the first launch alone.
        if (item.contains("shapes")) {
            for_each_object(array_field(item, "shapes", source, where), source, where + "shapes",
                            [&](const json& shape, const std::string& inner) {
                                launch.shapes.push_back(shape_from_json(
                                    shape, launch.parameters.size(), source, inner));
                            });
            launch.other_launches = unsigned_field(item, "other_launches", source, where);
        }
        file.launches.push_back(std::move(launch));
    });
    return file;
}

namespace {

json read_json_file(const std::filesystem::path& file, const char* rerun) {
    std::ifstream stream(file, std::ios::binary);
    if (!stream) throw ProfileError(file.string() + ": cannot be opened");
    std::ostringstream text;
    text << stream.rdbuf();
    json document = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded()) {
        throw ProfileError(file.string() + ": not valid JSON (a truncated or foreign file; rerun " +
                           rerun + ")");
    }
    return document;
}

}  // namespace

activity::ActivityFile read_activity_file(const std::filesystem::path& file) {
    return activity_from_json(read_json_file(file, "the profile"), file.string());
}

activity::CaptureFile read_capture_file(const std::filesystem::path& file) {
    return capture_from_json(read_json_file(file, "the capture"), file.string());
}

}  // namespace optiml::profile
