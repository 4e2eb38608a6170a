// The field-naming JSON reader: a JSON value together with where it sits in a document
// ("arguments[2].fill.kind") and in which file, so that every check fails with one uniform message:
//   "<file>: <field>: <problem>; expected <what>"
// ("(file)" for the field when the whole document is meant). A room keeps its own exception type:
// it gives its readers a JsonFieldThrow that throws it (driver/spec throws SpecError, the recording
// readers of driver/search RecordingError); without one a JsonFieldError is thrown. Never lets a
// nlohmann exception out.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace optiml::base {

class JsonFieldError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Throws a room's error with the whole message. Should it return, JsonFieldError is thrown.
using JsonFieldThrow = void (*)(const std::string& message);

// "<file>: <field>: <problem>; expected <expected>".
std::string json_field_message(const std::string& file, const std::string& field,
                               const std::string& problem, const std::string& expected);

// "the string \"abc\"", "2.5", "true", "an array": how an unexpected value is described.
std::string describe(const nlohmann::json& value);

// `text` in double quotes, cut after 60 characters ("...").
std::string quote_truncated(const std::string& text);

// "a, b or c"; "a" for one item; `none` for no items.
std::string join_or(const std::vector<std::string>& items, const std::string& none);

// Where a value sits: the file and the path in it. The failures it throws name both.
class JsonPath {
  public:
    explicit JsonPath(std::string file, std::string path = "", JsonFieldThrow raise = nullptr)
        : file_(std::move(file)), path_(std::move(path)), raise_(raise) {}

    const std::string& file() const { return file_; }
    const std::string& path() const { return path_; }  // "" for the whole document

    JsonPath field(std::string_view key) const;  // a.b ("b" at the top)
    JsonPath index(std::size_t i) const;         // a[3]
    JsonPath key(std::string_view key) const;    // a["16,1"] (keys that are data)

    [[noreturn]] void fail(const std::string& problem, const std::string& expected) const;

  private:
    std::string file_;
    std::string path_;
    JsonFieldThrow raise_;
};

// A value and its JsonPath: typed access that fails with the uniform message.
class JsonField {
  public:
    JsonField(const nlohmann::json& value, JsonPath where)
        : value_(&value), where_(std::move(where)) {}
    JsonField(const nlohmann::json& value, std::string path, std::string file,
              JsonFieldThrow raise = nullptr)
        : JsonField(value, JsonPath(std::move(file), std::move(path), raise)) {}

    const nlohmann::json& json() const { return *value_; }
    const JsonPath& where() const { return where_; }
    const std::string& path() const { return where_.path(); }
    const std::string& file() const { return where_.file(); }

    [[noreturn]] void fail(const std::string& problem, const std::string& expected) const;
    // "got <value>; expected <expected>", the value as describe() puts it.
    [[noreturn]] void fail_got(const std::string& expected) const;

    // Objects.
    void expect_object(const std::string& expected) const;
    // Fails on the first key not in `allowed` (with a did-you-mean hint for a near miss).
    void allow_only(const std::vector<std::string>& allowed) const;
    bool has(std::string_view key) const;
    std::optional<JsonField> optional(std::string_view key) const;
    // Fails with "missing; expected <expected>" when absent.
    JsonField required(std::string_view key, const std::string& expected) const;
    JsonField child(std::string_view key) const;  // the key must exist

    // Arrays: the elements, as fields "path[i]".
    std::vector<JsonField> items(const std::string& expected) const;

    // Scalars: fail_got(expected) on any other kind of value.
    std::string string(const std::string& expected) const;
    bool boolean(const std::string& expected) const;
    double number(const std::string& expected) const;
    std::int64_t integer(const std::string& expected) const;  // any JSON integer within int64
    std::uint64_t unsigned_integer(const std::string& expected) const;

  private:
    const nlohmann::json* value_;
    JsonPath where_;
};

}  // namespace optiml::base
