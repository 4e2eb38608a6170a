// generate_launcher(): checks that the variants fit the spec, numbers them, and assembles the
// generated header and source.
#include "driver/codegen/launcher.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "driver/codegen/detail/render.h"

namespace optiml::codegen {
namespace {

// 90 for "sm_90"; nullopt for anything else (arch-specific "sm_90a" images run on one exact
// architecture only, which the dispatch rule does not model).
std::optional<int> parse_arch(const std::string& arch) {
    constexpr std::string_view prefix = "sm_";
    if (!arch.starts_with(prefix) || arch.size() == prefix.size() ||
        arch.size() > prefix.size() + 4)
        return std::nullopt;
    int value = 0;
    for (std::size_t i = prefix.size(); i < arch.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(arch[i]))) return std::nullopt;
        value = value * 10 + (arch[i] - '0');
    }
    return value;
}

class VariantChecker {
  public:
    explicit VariantChecker(const spec::Spec& spec) : spec_(spec) {}

    int check(const Variant& variant) const {
        const std::optional<int> arch = parse_arch(variant.arch);
        if (!arch) {
            fail(variant, "architecture \"" + variant.arch + "\" is not understood",
                 "\"sm_<major><minor>\", e.g. \"sm_90\"");
        }
        if (variant.cubin.empty() && variant.ptx.empty()) {
            fail(variant, "it has neither a CUBIN nor PTX", "at least one image per variant");
        }
        if (variant.lowered_name.empty()) {
            fail(variant, "its lowered kernel name is empty",
                 "the mangled symbol of the kernel in its images");
        }
        for (const spec::Parameter& parameter : spec_.parameters) {
            if (!variant.winner.parameters.contains(parameter.name)) {
                fail(variant, "parameter " + parameter.name + " has no value",
                     "a value for every parameter of the spec (retune: OPTIML_MODE=retune)");
            }
        }
        for (const auto& parameter_value : variant.winner.parameters) {
            const std::string& name = parameter_value.first;  // clang 14 captures no bindings
            const bool known = std::any_of(
                spec_.parameters.begin(), spec_.parameters.end(),
                [&](const spec::Parameter& parameter) { return parameter.name == name; });
            if (!known) {
                fail(variant, "parameter " + name + " is not in the spec",
                     "only the spec's parameters (retune: OPTIML_MODE=retune)");
            }
        }
        return *arch;
    }

  private:
    [[noreturn]] void fail(const Variant& variant, const std::string& problem,
                           const std::string& expected) const {
        throw CodegenError(
            spec_.file.string() + ": tuned variant for " +
            (variant.arch.empty() ? std::string("(no architecture)") : variant.arch) +
            (variant.key.empty() ? "" : " (cache key " + variant.key + ")") + ": " + problem +
            "; expected " + expected);
    }

    const spec::Spec& spec_;
};

// Variants in architecture order (stable text, so an unchanged result rewrites nothing), each
// numbered by its position.
std::vector<PreparedVariant> prepare(const spec::Spec& spec, const std::vector<Variant>& variants) {
    const VariantChecker checker(spec);
    std::vector<PreparedVariant> prepared;
    for (const Variant& variant : variants)
        prepared.push_back({&variant, checker.check(variant), 0});
    std::sort(prepared.begin(), prepared.end(),
              [](const PreparedVariant& a, const PreparedVariant& b) { return a.arch < b.arch; });
    for (std::size_t i = 0; i < prepared.size(); ++i) {
        if (i > 0 && prepared[i].arch == prepared[i - 1].arch) {
            throw CodegenError(spec.file.string() + ": two tuned variants for " +
                               prepared[i].variant->arch +
                               "; expected at most one cache entry per architecture");
        }
        prepared[i].index = static_cast<int>(i);
    }
    return prepared;
}

}  // namespace

GeneratedFiles generate_launcher(const spec::Spec& spec, const std::vector<Variant>& variants,
                                 const std::vector<std::string>& notes,
                                 const std::vector<Variant>& originals) {
    if (spec.name == "rt") {
        throw CodegenError(spec.file.string() +
                           ": name: \"rt\" is the runtime's namespace (optiml::rt); expected "
                           "another name");
    }
    const std::vector<PreparedVariant> prepared = prepare(spec, variants);
    // The originals by instantiation: one group each (one in all for a kernel without any).
    const std::vector<std::map<std::string, std::int64_t>> instances = block_instances(spec);
    std::vector<std::vector<Variant>> groups(std::max<std::size_t>(instances.size(), 1));
    for (const Variant& original : originals) {
        const auto found =
            std::find(instances.begin(), instances.end(), original.winner.parameters);
        if (!instances.empty() && found == instances.end()) {
            throw CodegenError(spec.file.string() + ": the original for " + original.arch +
                               " is at " + parameters_text(spec, original.winner.parameters) +
                               ", which is none of the kernel's instantiations; expected the "
                               "defaults or another value of a template argument");
        }
        groups[instances.empty() ? 0 : static_cast<std::size_t>(found - instances.begin())]
            .push_back(original);
    }
    std::vector<std::vector<PreparedVariant>> prepared_originals;
    for (const std::vector<Variant>& group : groups)
        prepared_originals.push_back(prepare(spec, group));
    return GeneratedFiles{render_header(spec),
                          render_source(spec, prepared, notes, prepared_originals)};
}

std::filesystem::path header_path(const std::string& name) {
    return std::filesystem::path("include") / "optiml" / (name + ".h");
}

std::filesystem::path source_path(const std::string& name) {
    return "optiml_" + name + ".cu";
}

}  // namespace optiml::codegen
