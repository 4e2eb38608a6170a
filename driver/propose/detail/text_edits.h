// Splices edits into a text: each replaces [offset, offset + length) with new text. The rewrites
// collect edits against the original offsets and apply them in one pass, so that one edit never
// shifts the positions another was computed from.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::propose {

struct TextEdit {
    std::size_t offset = 0;
    std::size_t length = 0;  // 0: an insertion
    std::string text;
};

// Edits must not overlap; insertions at one offset land in the order given.
std::string apply_edits(std::string_view source, std::vector<TextEdit> edits);

// Whether a token's text is one of a fixed list of words.
template <std::size_t N>
bool is_one_of(std::string_view word, const std::array<std::string_view, N>& words) {
    return std::find(words.begin(), words.end(), word) != words.end();
}

}  // namespace optiml::propose
