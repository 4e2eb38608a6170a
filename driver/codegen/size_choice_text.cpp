// Dispatch by problem size in the generated launchers (issue 29): after the device's variant is
// resolved, the launch's size (the product of the plan's arguments) picks the range it falls in
// (table_for_size), and a range run by another variant resolves that variant's own table. A few
// comparisons: no allocation, no lock.
#include <cstdio>
#include <sstream>

#include "driver/codegen/detail/cpp_text.h"
#include "driver/codegen/detail/render.h"

namespace optiml::codegen {
namespace {

// A size as a C++ literal that reads back as the same double.
std::string size_literal(double size) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", size);
    std::string out = text;
    if (out.find_first_of(".e") == std::string::npos) out += ".0";
    return out;
}

std::string untuned_note(const PreparedVariant& variant) {
    return "untuned_size_" + std::to_string(variant.index);
}

bool has_plan(const PreparedVariant& variant) {
    return variant.parent < 0 && !variant.variant->by_size.ranges.empty();
}

// The table that runs `range` of `owner`'s plan.
std::string range_table(const std::vector<PreparedVariant>& variants, const PreparedVariant& owner,
                        const SizeDispatchPlan::Range& range) {
    const PreparedVariant* sized = size_variant(variants, owner, range);
    return sized == nullptr ? "table" : size_table(*sized);
}

// The arguments of the launchers' size: every plan's (prepare() checks that they agree).
const SizeDispatchPlan* first_plan(const std::vector<PreparedVariant>& variants) {
    for (const PreparedVariant& variant : variants)
        if (has_plan(variant)) return &variant.variant->by_size;
    return nullptr;
}

}  // namespace

std::string size_axis_text(const SizeDispatchPlan& plan) {
    std::string text;
    for (const std::string& name : plan.arguments) text += (text.empty() ? "" : " * ") + name;
    return text;
}

const PreparedVariant* size_variant(const std::vector<PreparedVariant>& variants,
                                    const PreparedVariant& owner,
                                    const SizeDispatchPlan::Range& range) {
    if (range.variant < 0) return nullptr;
    return &variants[static_cast<std::size_t>(owner.first_size_variant + range.variant)];
}

std::string render_table_for_size(const std::vector<PreparedVariant>& variants) {
    if (first_plan(variants) == nullptr) return "";
    std::ostringstream out;
    out << "// The table whose kernel runs a launch of `size` on a device that resolved "
           "`variant`:\n"
        << "// each range of sizes runs the variant tuned for it.\n"
        << "::optiml::rt::KernelTable* table_for_size(int variant, double size) {\n"
        << "    switch (variant) {\n";
    for (const PreparedVariant& owner : variants) {
        if (!has_plan(owner)) continue;
        const SizeDispatchPlan& plan = owner.variant->by_size;
        out << "        case " << owner.index << ":  // " << owner.variant->arch
            << ": tuned at sizes " << size_literal(plan.smallest) << " to "
            << size_literal(plan.largest) << "\n"
            << "            " << untuned_note(owner) << ".note(size);\n";
        for (std::size_t r = 0; r < plan.ranges.size(); ++r) {
            const SizeDispatchPlan::Range& range = plan.ranges[r];
            const std::string result = "return &" + range_table(variants, owner, range) + ";\n";
            if (r + 1 == plan.ranges.size())
                out << "            " << result;
            else
                out << "            if (size < " << size_literal(range.below) << ") " << result;
        }
    }
    out << "        default:\n"
        << "            return &table;\n"
        << "    }\n"
        << "}\n\n";
    return out.str();
}

std::string render_size_choice(const spec::Spec& spec,
                               const std::vector<PreparedVariant>& variants) {
    const SizeDispatchPlan* plan = first_plan(variants);
    if (plan == nullptr) return "";
    const std::string generated = "::" + generated_namespace(spec) + "::";
    std::ostringstream out;
    out << "    // Dispatch by problem size: a launch's size is " << size_axis_text(*plan) << ".\n"
        << "    chosen = " << generated << "table_for_size(dispatch.variant, ";
    for (std::size_t i = 0; i < plan->arguments.size(); ++i)
        out << (i == 0 ? "" : " * ") << "static_cast<double>(" << arg_prefix << plan->arguments[i]
            << ")";
    out << ");\n"
        << "    if (chosen != &" << generated << "table) {\n"
        << "        status = chosen->resolve(device, &kernel, &dispatch);\n"
        << "        if (status != cudaSuccess) return status;\n"
        << "    }\n";
    return out.str();
}

std::string render_untuned_notes(const spec::Spec& spec,
                                 const std::vector<PreparedVariant>& variants) {
    std::ostringstream out;
    for (const PreparedVariant& owner : variants) {
        if (!has_plan(owner)) continue;
        const SizeDispatchPlan& plan = owner.variant->by_size;
        const std::string arguments =
            "(" + string_literal("optiml::" + spec.name) + ", " +
            string_literal(size_axis_text(plan)) + ", " + string_literal(owner.variant->arch) +
            ", " + size_literal(plan.smallest) + ", " + size_literal(plan.largest) + ", ";
        out << "// Says once that a launch lies outside the sizes " << owner.variant->arch
            << " was tuned at.\n"
            << "#ifdef NDEBUG\n"
            << "OPTIML_CONSTINIT ::optiml::rt::UntunedSizeNote " << untuned_note(owner) << arguments
            << "false);\n"
            << "#else\n"
            << "OPTIML_CONSTINIT ::optiml::rt::UntunedSizeNote " << untuned_note(owner) << arguments
            << "true);\n"
            << "#endif\n\n";
    }
    return out.str();
}

}  // namespace optiml::codegen
