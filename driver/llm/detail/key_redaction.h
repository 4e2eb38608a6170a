// The API key out of text that came from elsewhere (a server's error body, libcurl's message,
// the configured URL) before it goes into a message: a server may echo the key back ("Incorrect
// API key provided: sk-..."). OptiML's own words never hold the key, so only such text passes
// through here, and a short key cannot mangle OptiML's sentences.
#pragma once

#include <cstddef>
#include <string>

namespace optiml::llm {

// Keys at least this long are redacted wherever they occur; a shorter key (a local server's "a",
// "abc") only where it stands as a whole token, so that it does not cut unrelated words apart.
inline constexpr std::size_t kShortestKeyRedactedAnywhere = 12;

// `text` with every occurrence of `key` (per the rule above) replaced by "<redacted>".
std::string redact_key(std::string text, const std::string& key);

}  // namespace optiml::llm
