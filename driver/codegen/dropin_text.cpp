// The drop-in form of a <<<>>> launch: the generated <name>_launch(grid, block, shared_bytes,
// stream, arguments...). It exists so a call site changes by one token; the tuned variant runs
// only for the launch the spec describes, since a variant was verified with the spec's geometry.
#include <sstream>

#include "driver/codegen/render.h"

namespace optiml::codegen {

std::string render_dropin(const spec::Spec& spec, const std::vector<PreparedVariant>& variants) {
    std::ostringstream out;
    out << "cudaError_t " << dropin_name(spec) << "(" << dropin_parameters(spec, arg_prefix)
        << ") {\n"
        << render_resolve(spec) << "\n"
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
    out << render_kernel_launch(spec) << "}\n";
    return out.str();
}

}  // namespace optiml::codegen
