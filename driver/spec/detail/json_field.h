// A JSON value together with where it sits in the spec ("arguments[2].fill.kind") and in which
// file, so that every check can fail with one uniform message:
//   "<file>: <field>: <problem>; expected <what>".
// Internal to driver/spec. Never lets a nlohmann exception out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/spec/expr.h"

namespace optiml::spec::detail {

// Throws SpecError with the uniform message.
[[noreturn]] void fail(const std::string& file, const std::string& field,
                       const std::string& problem, const std::string& expected);

// "the string \"abc\"", "2.5", "true", "an array": how an unexpected value is described.
std::string describe(const nlohmann::json& value);

// "a, b or c"; "a" for one item; `none` for no items.
std::string join_or(const std::vector<std::string>& items, const std::string& none);

class Field {
  public:
    Field(const nlohmann::json& value, std::string path, const std::string& file)
        : value_(&value), path_(std::move(path)), file_(&file) {}

    const nlohmann::json& json() const { return *value_; }
    const std::string& path() const { return path_; }
    const std::string& file() const { return *file_; }

    [[noreturn]] void fail(const std::string& problem, const std::string& expected) const;
    // "got <value>; expected <expected>".
    [[noreturn]] void fail_got(const std::string& expected) const;

    // Objects.
    void expect_object(const std::string& expected) const;
    // Fails on the first key not in `allowed` (with a did-you-mean hint).
    void allow_only(const std::vector<std::string>& allowed) const;
    bool has(std::string_view key) const;
    std::optional<Field> optional(std::string_view key) const;
    // Fails with "missing; expected <expected>" when absent.
    Field required(std::string_view key, const std::string& expected) const;
    Field child(std::string_view key) const;  // the key must exist

    // Arrays: the elements, as fields "path[i]".
    std::vector<Field> items(const std::string& expected) const;

    // Scalars: fail_got(expected) on any other kind of value.
    std::string string(const std::string& expected) const;
    bool boolean(const std::string& expected) const;
    double number(const std::string& expected) const;
    std::int64_t integer(const std::string& expected) const;  // any JSON integer within int64
    std::uint64_t unsigned_integer(const std::string& expected) const;
    // A JSON string parsed with Expr::parse, or a JSON integer.
    expr::Expr expression(const std::string& expected) const;

  private:
    const nlohmann::json* value_;
    std::string path_;
    const std::string* file_;
};

}  // namespace optiml::spec::detail
