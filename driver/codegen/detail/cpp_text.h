// Small helpers that turn data into C++ source text safely: comments, string literals, byte
// arrays, identifiers. Internal to driver/codegen.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace optiml::codegen {

// `text` as `//` comment lines, each prefixed by `indent`; control characters become spaces and
// a trailing backslash is dropped (it would splice the next source line into the comment).
std::string comment(std::string_view text, std::string_view indent = "");

// A C++ string literal holding `text` exactly.
std::string string_literal(std::string_view text);

// The body of an unsigned char array initializer: `bytes` as hex, 16 per line, each line
// starting with `indent`; a NUL byte is appended when `nul_terminate`.
std::string hex_bytes(std::string_view bytes, bool nul_terminate, std::string_view indent);

// `text` with every character that cannot appear in an identifier replaced by '_'.
std::string identifier_from(std::string_view text);

// An integer literal of type long long: "512LL", "(-3LL)".
std::string long_long_literal(std::int64_t value);

}  // namespace optiml::codegen
