// Rejects a spec that still holds a "TODO: ..." marker (what `optiml init` writes for every
// decision it leaves to the user), before any field is read: a skeleton is never tuned by
// accident, and the message says what to write instead of the marker.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "driver/spec/detail/json_field.h"
#include "driver/spec/detail/spec_internal.h"

namespace optiml::spec::detail {
namespace {

struct Marker {
    std::string path;
    std::string text;
};

void find_markers(const nlohmann::json& value, const std::string& path,
                  std::vector<Marker>& found) {
    if (value.is_string()) {
        const std::string& text = value.get_ref<const std::string&>();
        if (text.starts_with(kUnfinishedMarker)) found.push_back({path, text});
    } else if (value.is_object()) {
        for (const auto& [key, child] : value.items())
            find_markers(child, path.empty() ? key : path + "." + key, found);
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            find_markers(value[i], path + "[" + std::to_string(i) + "]", found);
    }
}

// The field's own name: "arguments[2].count" -> "count", "launch.grid[0]" -> "grid".
std::string_view field_name(std::string_view path) {
    const std::size_t bracket = path.rfind('[');
    if (bracket != std::string_view::npos && path.back() == ']' &&
        path.find('.', bracket) == std::string_view::npos)
        path = path.substr(0, bracket);
    const std::size_t dot = path.rfind('.');
    return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

std::string what_to_write(std::string_view field) {
    if (field == "count") return "an expression such as \"n\"";
    if (field == "value") return "a number: the value the kernel gets while tuning";
    if (field == "role")
        return "\"output\" (the kernel only writes it) or \"inout\" (it also reads it)";
    if (field == "values") return "integers to try (the default among them), without the marker";
    if (field == "block" || field == "grid" || field == "shared_memory_bytes")
        return "an expression such as \"ceil_div(n, block_size_x)\"";
    if (field == "kernel")
        return "the kernel's NVRTC name expression with its template arguments, e.g. \"k<16>\"";
    if (field == "default") return "an integer, one of the values";
    return "a value for this field (docs/spec.md)";
}

}  // namespace

void reject_unfinished(const nlohmann::json& json, const std::string& file_label) {
    std::vector<Marker> markers;
    find_markers(json, "", markers);
    if (markers.empty()) return;
    const Marker& first = markers.front();
    std::string problem = "still \"" + first.text + "\"";
    if (markers.size() > 1)
        problem += " (and " + std::to_string(markers.size() - 1) + " more \"" +
                   std::string(kUnfinishedMarker) + "\" markers to replace)";
    fail(file_label, first.path, problem, what_to_write(field_name(first.path)));
}

}  // namespace optiml::spec::detail
