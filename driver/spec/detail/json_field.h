// Spec JSON read through base's field-naming reader (driver/base/json_field.h), so that every
// check fails with one uniform message, "<file>: <field>: <problem>; expected <what>", as a
// SpecError. What is the spec's own: the error type and expressions.
// Internal to driver/spec. Never lets a nlohmann exception out.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "driver/base/json_field.h"
#include "driver/spec/expr.h"

namespace optiml::spec::detail {

using Field = base::JsonField;
using base::describe;
using base::join_or;

// Throws SpecError with `message` (the JsonFieldThrow of every spec Field).
[[noreturn]] void throw_spec_error(const std::string& message);

// The root of the spec document `file` names.
inline Field spec_root(const nlohmann::json& value, const std::string& file) {
    return Field(value, "", file, &throw_spec_error);
}

// Throws SpecError with the uniform message.
[[noreturn]] void fail(const std::string& file, const std::string& field,
                       const std::string& problem, const std::string& expected);

// A JSON string parsed with Expr::parse, or a JSON integer.
expr::Expr expression(const Field& field, const std::string& expected);

}  // namespace optiml::spec::detail
