// The generated definitions: the launcher (per-variant geometry, checks, cudaLaunchKernel), the
// dispatch query and the __constant__ setters.
#include <optional>
#include <sstream>

#include "driver/codegen/detail/cpp_text.h"
#include "driver/codegen/detail/render.h"

namespace optiml::codegen {
namespace {

// The geometry expressions as C++: integer scalar arguments and launch arguments by name,
// parameters as `values`; the grid is `grid`'s three expressions where a rewrite changed it.
class GeometryPrinter {
  public:
    GeometryPrinter(const spec::Spec& spec, const std::map<std::string, std::int64_t>& values,
                    const std::vector<std::string>& grid = {})
        : spec_(spec), values_(values) {
        if (grid.empty()) return;
        if (grid.size() != 3)
            throw CodegenError(spec_.file.string() + ": a variant's grid has " +
                               std::to_string(grid.size()) + " axes, not 3; tune it again");
        for (const std::string& axis : grid) {
            try {
                grid_.push_back(expr::Expr::parse(axis));
            } catch (const expr::ExprError& error) {
                throw CodegenError(spec_.file.string() + ": a variant's grid `" + axis +
                                   "`: " + error.what() + "; tune it again");
            }
        }
    }

    std::string print(const expr::Expr& expression, const std::string& field) const {
        try {
            return expression.to_cpp([this](std::string_view name) { return resolve(name); });
        } catch (const expr::ExprError& error) {
            throw CodegenError(spec_.file.string() + ": " + field + ": " + error.what() +
                               "; expected names of integer scalar arguments or parameters");
        }
    }

    // `target[d] = <block extent d>;` for each axis, each line starting with `indent`.
    std::string block(std::string_view target, std::string_view indent) const {
        std::string out;
        for (std::size_t d = 0; d < 3; ++d) {
            out += std::string(indent) + std::string(target) + "[" + std::to_string(d) + "] = " +
                   print(spec_.launch.block[d], "launch.block[" + std::to_string(d) + "]") + ";\n";
        }
        return out;
    }

    // Assignments of every geometry field, each line starting with `indent`.
    std::string assignments(std::string_view indent) const {
        static constexpr const char* axes[] = {"x", "y", "z"};
        std::string out;
        for (std::size_t d = 0; d < 3; ++d) {
            out += std::string(indent) + "geometry.block[" + std::to_string(d) + "] = " +
                   print(spec_.launch.block[d], "launch.block[" + std::to_string(d) + "]") +
                   ";  // " + axes[d] + "\n";
        }
        for (std::size_t d = 0; d < 3; ++d) {
            out += std::string(indent) + "geometry.grid[" + std::to_string(d) + "] = " +
                   print(grid_.empty() ? spec_.launch.grid[d] : grid_[d],
                         "launch.grid[" + std::to_string(d) + "]") +
                   ";  // " + axes[d] + "\n";
        }
        out += std::string(indent) + "geometry.shared_bytes = " +
               print(spec_.launch.shared_memory_bytes, "launch.shared_memory_bytes") + ";\n";
        return out;
    }

  private:
    std::optional<std::string> resolve(std::string_view name) const {
        for (const spec::Argument& argument : spec_.arguments) {
            if (argument.name != name) continue;
            if (argument.is_pointer || spec::is_floating(argument.type)) return std::nullopt;
            return "static_cast<long long>(" + std::string(arg_prefix) + argument.name + ")";
        }
        for (const spec::LaunchArgument& argument : spec_.launch_arguments) {
            if (argument.name == name)
                return "static_cast<long long>(" + std::string(arg_prefix) + argument.name + ")";
        }
        const auto found = values_.find(std::string(name));
        if (found == values_.end()) return std::nullopt;
        return long_long_literal(found->second);
    }

    const spec::Spec& spec_;
    const std::map<std::string, std::int64_t>& values_;
    std::vector<expr::Expr> grid_;  // empty: the spec's
};

std::string render_launcher(const spec::Spec& spec, const std::vector<PreparedVariant>& variants) {
    std::ostringstream out;
    out << "cudaError_t " << spec.name << "(" << launcher_parameters(spec, arg_prefix) << ") {\n"
        << render_resolve(spec) << render_size_choice(spec, variants) << "\n"
        << "    // Each variant has its own geometry: the spec's expressions with its parameters.\n"
        << "    ::optiml::rt::Geometry geometry{};\n"
        << render_geometry(spec, variants, "    ") << "    dim3 grid;\n"
        << "    dim3 block;\n"
        << "    std::size_t shared_bytes = 0;\n"
        << "    status = ::optiml::rt::launch_configuration(geometry, &grid, &block, "
           "&shared_bytes);\n"
        << "    if (status != cudaSuccess) return status;\n"
        << render_kernel_launch(spec,
                                "::" + generated_namespace(spec) + "::original_kernel(device, 0)")
        << "}\n";
    return out.str();
}

std::string render_dispatch_query(const spec::Spec& spec) {
    std::ostringstream out;
    out << "::optiml::rt::Dispatch " << spec.name << "_dispatch(int device) {\n"
        << "    cudaKernel_t kernel = nullptr;\n"
        << "    ::optiml::rt::Dispatch dispatch{-1, -1, nullptr};\n"
        << "    // On failure, resolve() names the error in dispatch.why.\n"
        << "    static_cast<void>(::" << generated_namespace(spec)
        << "::table.resolve(device, &kernel, &dispatch));\n"
        << "    return dispatch;\n"
        << "}\n";
    return out.str();
}

std::string render_setter(const spec::Spec& spec, const std::vector<PreparedVariant>& variants,
                          const spec::ConstantSymbol& constant) {
    const std::string type = spec::cpp_type(constant.type);
    const std::string generated = "::" + generated_namespace(spec) + "::";
    std::ostringstream out;
    out << "cudaError_t " << setter_name(spec, constant) << "(const " << type
        << "* values, std::size_t count, cudaStream_t stream) {\n"
        << "    if (count > static_cast<std::size_t>(-1) / sizeof(" << type
        << ")) return cudaErrorInvalidValue;\n"
        << "    const std::size_t bytes = count * sizeof(" << type << ");\n"
        << "    int device = 0;\n"
        << "    cudaError_t status = ::optiml::rt::current_device(&device);\n"
        << "    if (status != cudaSuccess) return status;\n";
    if (variants.empty()) {
        // No library is ever loaded: the original's symbol is the only one.
        out << "    return cudaMemcpyToSymbolAsync(::" << constant.name
            << ", values, bytes, 0, cudaMemcpyHostToDevice, stream);\n}\n";
        return out.str();
    }
    out << "    // The symbol's name inside each variant's images, by variant number.\n"
        << "    static const char* const symbols[] = {";
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const auto found = variants[i].variant->constant_symbols.find(constant.name);
        const std::string& symbol =
            found != variants[i].variant->constant_symbols.end() ? found->second : constant.name;
        out << (i == 0 ? "" : ", ") << string_literal(symbol);
    }
    out << "};\n"
        << "    // Every kernel a launch on this device may run: the device's variant, each "
           "variant\n"
        << "    // by size, and the original kernel where a table runs it (once).\n"
        << "    ::optiml::rt::KernelTable* const tables[] = {&" << generated << "table";
    for (const PreparedVariant& variant : variants)
        if (variant.parent >= 0) out << ", &" << generated << size_table(variant);
    out << "};\n"
        << "    bool original_set = false;\n"
        << "    for (::optiml::rt::KernelTable* each : tables) {\n"
        << "        cudaKernel_t kernel = nullptr;\n"
        << "        cudaLibrary_t library = nullptr;\n"
        << "        ::optiml::rt::Dispatch dispatch{-1, -1, nullptr};\n"
        << "        status = each->resolve(device, &kernel, &dispatch, &library);\n"
        << "        if (status != cudaSuccess) return status;\n"
        << "        if (library == nullptr) {\n"
        << "            if (original_set) continue;\n"
        << "            original_set = true;\n"
        << "            status = cudaMemcpyToSymbolAsync(::" << constant.name
        << ", values, bytes, 0, cudaMemcpyHostToDevice, stream);\n"
        << "            if (status != cudaSuccess) return status;\n"
        << "            continue;\n"
        << "        }\n"
        << "        void* address = nullptr;\n"
        << "        std::size_t size = 0;\n"
        << "        status = cudaLibraryGetGlobal(&address, &size, library, "
           "symbols[dispatch.variant]);\n"
        << "        if (status != cudaSuccess) return status;\n"
        << "        if (bytes > size) return cudaErrorInvalidValue;\n"
        << "        status = cudaMemcpyAsync(address, values, bytes, cudaMemcpyHostToDevice, "
           "stream);\n"
        << "        if (status != cudaSuccess) return status;\n"
        << "    }\n"
        << "    return cudaSuccess;\n"
        << "}\n";
    return out.str();
}

}  // namespace

std::string render_resolve(const spec::Spec& spec) {
    // Counted first: a call that fails (no GPU) still is no leftover <<<>>>.
    return "    ::" + generated_namespace(spec) +
           "::table.note_launch();\n"
           "    int device = 0;\n"
           "    cudaError_t status = ::optiml::rt::current_device(&device);\n"
           "    if (status != cudaSuccess) return status;\n"
           "    cudaKernel_t kernel = nullptr;\n"
           "    ::optiml::rt::Dispatch dispatch{-1, -1, nullptr};\n"
           "    status = ::" +
           generated_namespace(spec) +
           "::table.resolve(device, &kernel, &dispatch);\n"
           "    if (status != cudaSuccess) return status;\n"
           "    ::optiml::rt::KernelTable* chosen = &::" +
           generated_namespace(spec) + "::table;\n";
}

std::string render_geometry(const spec::Spec& spec, const std::vector<PreparedVariant>& variants,
                            std::string_view indent) {
    const std::string in(indent);
    const std::map<std::string, std::int64_t> defaults = default_values(spec);
    const std::string original_comment = "original kernel: " + parameters_text(spec, defaults);
    if (variants.empty())
        return in + "// " + original_comment + "\n" +
               GeometryPrinter(spec, defaults).assignments(in);
    const std::string case_indent = in + "        ";
    std::ostringstream out;
    out << in << "switch (dispatch.variant) {\n";
    for (const PreparedVariant& prepared : variants) {
        out << in << "    case " << prepared.index << ":  // " << prepared.variant->arch
            << (prepared.parent < 0 ? "" : " by size") << ": "
            << parameters_text(spec, prepared.variant->winner.parameters) << "\n"
            << GeometryPrinter(spec, prepared.variant->winner.parameters,
                               prepared.variant->winner.grid)
                   .assignments(case_indent)
            << case_indent << "break;\n";
    }
    out << in << "    default:  // " << original_comment << "\n"
        << GeometryPrinter(spec, defaults).assignments(case_indent) << case_indent << "break;\n"
        << in << "}\n";
    return out.str();
}

std::string render_block(const spec::Spec& spec, const std::map<std::string, std::int64_t>& values,
                         std::string_view target, std::string_view indent) {
    return GeometryPrinter(spec, values).block(target, indent);
}

std::string render_kernel_launch(const spec::Spec& spec, std::string_view original) {
    const std::string generated = "::" + generated_namespace(spec);
    std::ostringstream out;
    out << "    const void* original = " << original << ";\n"
        << "    status = chosen->allow_dynamic_shared_memory(device, kernel, original, "
           "shared_bytes);\n"
        << "    if (status != cudaSuccess) return status;\n\n";
    if (spec.arguments.empty()) {
        out << "    void** arguments = nullptr;\n";
    } else {
        out << "    // The kernel's own arguments only (launch arguments are the launcher's).\n"
            << "    void* arguments[] = {";
        for (std::size_t i = 0; i < spec.arguments.size(); ++i) {
            out << (i == 0 ? "" : ", ") << "&" << arg_prefix << spec.arguments[i].name;
        }
        out << "};\n";
    }
    out << "    // cudaLaunchKernel takes a library's cudaKernel_t in place of a function.\n"
        << "    const void* function = kernel != nullptr ? static_cast<const void*>(kernel) : "
           "original;\n"
        << "    return cudaLaunchKernel(function, grid, block, arguments, shared_bytes, stream);\n";
    return out.str();
}

std::string render_functions(const spec::Spec& spec, const std::vector<PreparedVariant>& variants) {
    std::string out = render_launcher(spec, variants) + "\n" + render_dropin(spec, variants) +
                      "\n" + render_dispatch_query(spec);
    for (const spec::ConstantSymbol& constant : spec.constants) {
        out += '\n';
        out += render_setter(spec, variants, constant);
    }
    return out;
}

}  // namespace optiml::codegen
