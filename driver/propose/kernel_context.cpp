#include "driver/propose/kernel_context.h"

#include <algorithm>

namespace optiml::propose {

std::optional<search::Candidate> derive(const KernelContext& context,
                                        const search::Candidate& parent, const std::string& text,
                                        const std::string& transformation) {
    if (text == context.text_of(parent)) return std::nullopt;
    search::Candidate child = parent;
    child.source_id = context.register_source(text);
    child.transformations.push_back(transformation);
    return child;
}

search::Candidate with_option(const search::Candidate& parent, const std::string& option) {
    search::Candidate child = parent;
    child.options.push_back(option);
    // Options are a set: one order, so the same options reached two ways are one candidate.
    std::sort(child.options.begin(), child.options.end());
    return child;
}

}  // namespace optiml::propose
