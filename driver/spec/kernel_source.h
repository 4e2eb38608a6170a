// Checks of a spec against its kernel source that need no compiler: the #define defaults the
// source gives its parameters, compared with the spec's (the spec's are the original).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "driver/spec/spec.h"

namespace optiml::spec {

// A `#define <parameter> <value>` line of the kernel source (an #ifndef default, usually).
struct SourceDefault {
    std::size_t parameter = 0;          // index into Spec::parameters
    std::string text;                   // the value as written
    std::optional<std::int64_t> value;  // when it is an integer literal
    int line = 0;
};

std::vector<SourceDefault> source_defaults(const Spec& spec);

// One warning per source default that differs from the spec's `default`, naming both values, the
// source line and the spec field.
std::vector<std::string> default_mismatches(const Spec& spec);

// The line where the kernel source defines main(), if it does: a file of host code, which the
// launcher must not compile a second time.
std::optional<int> main_definition_line(const Spec& spec);

}  // namespace optiml::spec
