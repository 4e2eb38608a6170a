// Shared by the recording readers: where in a file a value sits (for errors that name the
// field), typed access that fails with such an error, and the space a set of records spans.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "driver/base/json_field.h"
#include "driver/search/recording.h"
#include "driver/search/recording_file.h"

namespace optiml::search::detail {

// Where a value sits (base's JsonPath, failing with a RecordingError) and typed access to it. A
// value that is not what was expected is quoted as the file has it: "got \"fast\"".
class JsonPath {
  public:
    JsonPath(std::string file, std::string path = "");
    JsonPath field(std::string_view key) const { return JsonPath(at_.field(key)); }  // a.b
    JsonPath index(std::size_t i) const { return JsonPath(at_.index(i)); }           // a[3]
    // a["16,1"] (keys that are data)
    JsonPath key(std::string_view key) const { return JsonPath(at_.key(key)); }
    [[noreturn]] void fail(const std::string& problem, const std::string& expected) const {
        at_.fail(problem, expected);
    }
    [[noreturn]] void fail_got(const nlohmann::json& got, const std::string& expected) const;

    // The member `name` of `object` (which this path names); fails when it is missing.
    const nlohmann::json& member(const nlohmann::json& object, std::string_view name,
                                 const std::string& expected) const;
    const nlohmann::json& object(const nlohmann::json& value, const std::string& expected) const;
    const nlohmann::json& array(const nlohmann::json& value, const std::string& expected) const;
    double number(const nlohmann::json& value, const std::string& expected) const;
    std::int64_t integer(const nlohmann::json& value, const std::string& expected) const;
    std::string string(const nlohmann::json& value, const std::string& expected) const;
    // The member `name` of `object` when it is a string, "" when it is absent; any other value
    // fails as field `name`.
    std::string optional_string(const nlohmann::json& object, std::string_view name,
                                const std::string& expected) const;

  private:
    explicit JsonPath(base::JsonPath at) : at_(std::move(at)) {}
    base::JsonPath at_;
};

// Names in the given order; each parameter's values are the distinct recorded ones, ascending.
// Defaults: `defaults` when given, else the first recorded configuration in enumeration order
// (found among the records: the space they span is never enumerated).
void span_space(Recording& recording, std::vector<std::string> names,
                std::optional<Config> defaults = std::nullopt);

Recording read_optiml_recording(const nlohmann::json& json, const JsonPath& root);
Recording read_optiml_manifest(const nlohmann::json& json, const JsonPath& root);
Recording read_kernel_tuner_cache(const nlohmann::json& json, const JsonPath& root);
Recording read_t4_results(const nlohmann::json& json, const JsonPath& root);

}  // namespace optiml::search::detail
