// What a kernel source offers to tune, as Kernel Tuner writes it: macros with an `#ifndef NAME`
// / `#define NAME value` default, and the template parameters of a kernel (`template <int TILE =
// 16>`). `optiml init` turns them into a spec's parameters; read from the lexer's tokens, so
// comments and strings never count.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/source/kernel_text.h"

namespace optiml::source {

struct MacroDefault {
    std::string name;
    std::string value;                 // as written: "256", "(4)", "float"
    std::optional<long long> integer;  // when the value is an integer literal
    int line = 0;                      // of the #define
};

// Every `#ifndef NAME` directly followed (blanks and comments between) by an object-like
// `#define NAME value`, in source order.
std::vector<MacroDefault> macro_defaults(std::string_view source);

struct TemplateParameter {
    std::string kind;           // "int", "typename", "unsigned int", ...
    std::string name;           // "" when unnamed
    std::string default_value;  // "" when none
    std::optional<long long> integer_default;
};

// The parameters of the `template <...>` that opens `kernel`'s declaration; empty when the
// kernel is not a template.
std::vector<TemplateParameter> template_parameters(std::string_view source,
                                                   const KernelText& kernel);

// "256" -> 256, "0x10" -> 16, "(4)" -> 4, "8u" -> 8; nullopt for anything else.
std::optional<long long> integer_literal(std::string_view text);

}  // namespace optiml::source
