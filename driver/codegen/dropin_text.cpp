// The drop-in form of a <<<>>> launch: the generated <name>_launch(grid, block, shared_bytes,
// stream, arguments...). It exists so a call site changes by one token; the tuned variant runs
// only for the launch the spec describes, since a variant was verified with the spec's geometry.
// A <<<>>> launch of a template kernel names its instantiation and this call does not: where the
// template arguments size the block, the caller's block says which one it launches, and a block
// that is none of them launches nothing (that kernel on another block computes garbage).
#include <sstream>

#include "driver/codegen/detail/cpp_text.h"
#include "driver/codegen/detail/render.h"

namespace optiml::codegen {
namespace {

// "block [tile_size, tile_size, 1] at tile_size = 32, 8, 16" style text of the instantiations.
std::string instances_text(const spec::Spec& spec,
                           const std::vector<std::map<std::string, std::int64_t>>& instances) {
    std::string text;
    for (const auto& values : instances)
        text += (text.empty() ? "" : ", ") + instance_kernel(spec, values);
    return text + " (block [" + spec.launch.block[0].text() + ", " + spec.launch.block[1].text() +
           ", " + spec.launch.block[2].text() + "])";
}

// Chooses `instance` by the caller's block where no tuned kernel runs; returns an error, said
// once, for a block of no instantiation or one this program does not hold.
std::string render_instance_choice(
    const spec::Spec& spec, const std::vector<std::map<std::string, std::int64_t>>& instances) {
    const std::string launcher = string_literal("optiml::" + dropin_name(spec));
    const std::string count = std::to_string(instances.size());
    std::ostringstream out;
    out << "    // " << spec.kernel
        << ": its template arguments size the block. A <<<>>> launch names its\n"
        << "    // instantiation and this call does not: the caller's block says which one.\n"
        << "    int instance = 0;\n"
        << "    if (kernel == nullptr) {\n"
        << "        // One flag per reason, so that each is said once (no lock, no allocation).\n"
        << "        static std::atomic<bool> said[" << count << " + 1];\n"
        << "        instance = -1;\n"
        << "        long long instance_block[3] = {0, 0, 0};\n";
    for (std::size_t i = 0; i < instances.size(); ++i) {
        out << "        // " << i << ": " << instance_kernel(spec, instances[i])
            << (i == 0 ? " (the spec's kernel)" : "") << "\n"
            << render_block(spec, instances[i], "instance_block", "        ")
            << "        if (instance < 0 && ::optiml::rt::same_block(instance_block, "
               "caller_block)) "
               "instance = "
            << i << ";\n";
    }
    out << "        if (instance < 0) {\n"
        << "            return ::optiml::rt::refuse_launch(said[" << count << "], " << launcher
        << ", caller_block,\n"
        << "                                               "
        << string_literal("is the block of none of " + instances_text(spec, instances) +
                          ", and a template kernel run on another block than its own computes "
                          "wrong results. Launch with one of those blocks, or add the value to "
                          "the parameter's values in the spec")
        << ");\n"
        << "        }\n"
        << "        static const char* const not_compiled[] = {";
    for (std::size_t i = 0; i < instances.size(); ++i) {
        out << (i == 0 ? "" : ", ")
            << string_literal("is " + instance_kernel(spec, instances[i]) +
                              "'s, which this program does not hold (it does not instantiate it "
                              "and OptiML compiled no image of it)");
    }
    out << "};\n"
        << "        if (instance > 0 && ::" << generated_namespace(spec)
        << "::original_kernel(device, instance) == nullptr) {\n"
        << "            return ::optiml::rt::refuse_launch(said[instance], " << launcher
        << ", caller_block, not_compiled[instance]);\n"
        << "        }\n"
        << "    }\n";
    return out.str();
}

}  // namespace

std::string render_dropin(const spec::Spec& spec, const std::vector<PreparedVariant>& variants) {
    const std::vector<std::map<std::string, std::int64_t>> instances = block_instances(spec);
    std::ostringstream out;
    out << "cudaError_t " << dropin_name(spec) << "(" << dropin_parameters(spec, arg_prefix)
        << ") {\n"
        << render_resolve(spec) << render_size_choice(spec, variants) << "\n"
        << "    dim3 grid = caller_grid;\n"
        << "    dim3 block = caller_block;\n"
        << "    std::size_t shared_bytes = caller_shared_bytes;\n";
    for (const spec::LaunchArgument& argument : spec.launch_arguments)
        out << "    static_cast<void>(" << arg_prefix << argument.name << ");\n";
    if (!variants.empty()) {
        out << "    if (kernel != nullptr) {\n"
            << "        // The tuned variant replaces only the launch the spec describes: the "
               "caller's\n"
            << "        // geometry must be the one the spec computes for the original kernel.\n"
            << "        ::optiml::rt::Geometry geometry{};\n"
            << render_geometry(spec, {}, "        ")
            << "        if (::optiml::rt::same_launch(geometry, caller_grid, caller_block, "
               "caller_shared_bytes)) {\n"
            << "            // The variant's own geometry (its block size may differ).\n"
            << render_geometry(spec, variants, "            ")
            << "            status = ::optiml::rt::launch_configuration(geometry, &grid, &block, "
               "&shared_bytes);\n"
            << "            if (status != cudaSuccess) return status;\n"
            << "        } else {\n"
            << "            kernel = nullptr;  // another launch: the original, as <<<>>> would\n"
            << "        }\n"
            << "    }\n";
    }
    if (instances.empty()) {
        out << render_kernel_launch(
            spec, "::" + generated_namespace(spec) + "::original_kernel(device, 0)");
    } else {
        out << render_instance_choice(spec, instances)
            << render_kernel_launch(
                   spec, "::" + generated_namespace(spec) + "::original_kernel(device, instance)");
    }
    return out.str() + "}\n";
}

}  // namespace optiml::codegen
