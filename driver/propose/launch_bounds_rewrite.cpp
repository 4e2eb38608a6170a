// add_launch_bounds: one insertion before the kernel's name.
#include <string>

#include "driver/propose/detail/rewrites.h"
#include "driver/propose/detail/text_edits.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::propose {

std::optional<std::string> add_launch_bounds(std::string_view source, std::string_view kernel,
                                             int max_threads, int min_blocks) {
    if (max_threads <= 0 || min_blocks < 0) {
        throw source::RewriteError("add_launch_bounds on '" + std::string(kernel) +
                                   "': max_threads must be positive and min_blocks not negative");
    }
    const source::KernelText text = source::find_kernel(source, kernel);
    if (text.has_launch_bounds) return std::nullopt;
    std::string bounds = "__launch_bounds__(" + std::to_string(max_threads);
    if (min_blocks > 0) bounds += ", " + std::to_string(min_blocks);
    bounds += ") ";
    return apply_edits(source, {{text.name_begin, 0, bounds}});
}

}  // namespace optiml::propose
