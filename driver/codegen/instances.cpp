// The instantiations of a template kernel that the drop-in form chooses between by the caller's
// block (launcher.h: block_instances).
#include <algorithm>
#include <cctype>

#include "driver/codegen/detail/render.h"

namespace optiml::codegen {
namespace {

// Beyond this many combinations the rest are not compiled (their blocks are refused): each is one
// more instantiation nvcc compiles for every architecture of the target.
constexpr std::size_t max_instances = 64;

bool identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Each identifier of `text` passed to `replace` (which returns its replacement).
template <typename Replace>
std::string map_identifiers(const std::string& text, Replace replace) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const bool starts = !std::isdigit(static_cast<unsigned char>(text[i])) &&
                            identifier_char(text[i]) && (i == 0 || !identifier_char(text[i - 1]));
        if (!starts) {
            out += text[i++];
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && identifier_char(text[end])) ++end;
        out += replace(text.substr(i, end - i));
        i = end;
    }
    return out;
}

// The parameters that are template arguments of the kernel and appear in a block expression.
std::vector<const spec::Parameter*> block_template_parameters(const spec::Spec& spec) {
    const std::size_t open = spec.kernel.find('<');
    if (open == std::string::npos) return {};
    std::vector<std::string> in_arguments;
    map_identifiers(spec.kernel.substr(open), [&](const std::string& name) {
        in_arguments.push_back(name);
        return name;
    });
    std::vector<std::string> in_block;
    for (const expr::Expr& extent : spec.launch.block)
        for (const std::string& name : extent.names()) in_block.push_back(name);
    std::vector<const spec::Parameter*> found;
    for (const spec::Parameter& parameter : spec.parameters) {
        const auto named = [&](const std::vector<std::string>& names) {
            return std::find(names.begin(), names.end(), parameter.name) != names.end();
        };
        if (!parameter.values.empty() && named(in_arguments) && named(in_block))
            found.push_back(&parameter);
    }
    return found;
}

}  // namespace

std::vector<std::map<std::string, std::int64_t>> block_instances(const spec::Spec& spec) {
    const std::vector<const spec::Parameter*> varied = block_template_parameters(spec);
    if (varied.empty()) return {};
    const std::map<std::string, std::int64_t> defaults = default_values(spec);
    std::vector<std::map<std::string, std::int64_t>> instances{defaults};
    // Odometer over the varied parameters' values, in the spec's order.
    std::vector<std::size_t> digit(varied.size(), 0);
    while (instances.size() < max_instances) {
        std::map<std::string, std::int64_t> values = defaults;
        for (std::size_t p = 0; p < varied.size(); ++p)
            values[varied[p]->name] = varied[p]->values[digit[p]];
        if (values != defaults) instances.push_back(std::move(values));
        std::size_t p = varied.size();
        while (p > 0 && ++digit[p - 1] == varied[p - 1]->values.size()) digit[--p] = 0;
        if (p == 0) break;
    }
    return instances;
}

std::string instance_kernel(const spec::Spec& spec,
                            const std::map<std::string, std::int64_t>& values) {
    const std::size_t open = spec.kernel.find('<');
    if (open == std::string::npos) return spec.kernel;
    return spec.kernel.substr(0, open) +
           map_identifiers(spec.kernel.substr(open), [&](const std::string& name) {
               const auto found = values.find(name);
               return found == values.end() ? name : std::to_string(found->second);
           });
}

}  // namespace optiml::codegen
