#include "driver/propose/detail/text_edits.h"

#include <algorithm>

namespace optiml::propose {

std::string apply_edits(std::string_view source, std::vector<TextEdit> edits) {
    std::stable_sort(edits.begin(), edits.end(),
                     [](const TextEdit& a, const TextEdit& b) { return a.offset < b.offset; });
    std::string result;
    result.reserve(source.size() + 64 * edits.size());
    std::size_t copied = 0;
    for (const TextEdit& edit : edits) {
        result.append(source.substr(copied, edit.offset - copied));
        result.append(edit.text);
        copied = edit.offset + edit.length;
    }
    result.append(source.substr(copied));
    return result;
}

}  // namespace optiml::propose
