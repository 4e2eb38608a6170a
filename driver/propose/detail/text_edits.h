// Splices edits into a text: each replaces [offset, offset + length) with new text. The rewrites
// collect edits against the original offsets and apply them in one pass, so that one edit never
// shifts the positions another was computed from.
#pragma once

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

}  // namespace optiml::propose
