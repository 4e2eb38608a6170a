// generate_launcher(): checks that the variants fit the spec, numbers them, and assembles the
// generated header and source.
#include "driver/codegen/launcher.h"

#include <algorithm>
#include <cctype>
#include <cmath>
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

    // A plan's arguments are integer sizes of the spec, its ranges ascend to infinity and name
    // variants it holds, each of the architecture of the variant holding the plan.
    void check_plan(const Variant& variant) const {
        const SizeDispatchPlan& plan = variant.by_size;
        if (plan.ranges.empty()) return;
        if (plan.arguments.empty())
            fail(variant, "its dispatch by size names no argument",
                 "the integer arguments whose product is a launch's size (tune it again)");
        for (const std::string& name : plan.arguments)
            if (!is_size_argument(name))
                fail(variant, "its dispatch by size multiplies \"" + name + "\"",
                     "integer scalar or launch arguments of the spec (tune it again)");
        for (std::size_t r = 0; r < plan.ranges.size(); ++r) {
            const SizeDispatchPlan::Range& range = plan.ranges[r];
            const bool last = r + 1 == plan.ranges.size();
            if (last != std::isinf(range.below) ||
                (r > 0 && !(range.below > plan.ranges[r - 1].below)))
                fail(variant, "its size ranges are not ascending up to infinity",
                     "boundaries in ascending order, the last range unbounded (tune it again)");
            if (range.variant < -1 || range.variant >= static_cast<int>(plan.variants.size()))
                fail(variant,
                     "size range " + std::to_string(r) + " runs variant " +
                         std::to_string(range.variant) + ", which it does not hold",
                     "one of its " + std::to_string(plan.variants.size()) +
                         " size variants (tune it again)");
        }
        for (const Variant& sized : plan.variants) {
            check(sized);
            if (sized.arch != variant.arch || !sized.by_size.ranges.empty())
                fail(variant, "a size variant is for " + sized.arch + " or has a plan of its own",
                     "variants of " + variant.arch + " without plans (tune it again)");
        }
    }

  private:
    bool is_size_argument(const std::string& name) const {
        for (const spec::Argument& argument : spec_.arguments)
            if (argument.name == name)
                return !argument.is_pointer && !spec::is_floating(argument.type);
        return std::any_of(
            spec_.launch_arguments.begin(), spec_.launch_arguments.end(),
            [&](const spec::LaunchArgument& argument) { return argument.name == name; });
    }

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
    for (const Variant& variant : variants) {
        prepared.push_back({&variant, checker.check(variant), 0});
        checker.check_plan(variant);
    }
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
    // The size variants after every architecture's, numbered on; one axis for all.
    const std::size_t architectures = prepared.size();
    const SizeDispatchPlan* axis = nullptr;
    for (std::size_t i = 0; i < architectures; ++i) {
        const SizeDispatchPlan& plan = prepared[i].variant->by_size;
        if (plan.ranges.empty()) continue;
        if (axis != nullptr && axis->arguments != plan.arguments)
            throw CodegenError(spec.file.string() + ": the variants for " +
                               prepared[i].variant->arch +
                               " and another architecture dispatch by the sizes of other "
                               "arguments; expected one set for every architecture (tune again)");
        axis = &plan;
        prepared[i].first_size_variant = static_cast<int>(prepared.size());
        for (const Variant& sized : plan.variants)
            prepared.push_back(
                {&sized, prepared[i].arch, static_cast<int>(prepared.size()), static_cast<int>(i)});
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
