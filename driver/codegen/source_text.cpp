// The generated .cu: includes the user's kernel (the fallback nvcc compiles), embeds the tuned
// images as byte arrays and ties them to the runtime's KernelTable. A kernel among host code
// (compiled by nvcc, or a file with main()) is not included: that would compile the user's whole
// .cu a second time (main twice, every host function twice). The fallback is then the program's
// own kernel, as the user's build compiled it, found by its symbol at link time.
#include <algorithm>
#include <cctype>
#include <sstream>

#include "driver/spec/kernel_source.h"

#include "driver/codegen/detail/cpp_text.h"
#include "driver/codegen/detail/render.h"

namespace optiml::codegen {
namespace {

struct EmbeddedImage {
    const PreparedVariant* variant;
    bool is_ptx;
    std::string name;  // the array's name
};

std::vector<EmbeddedImage> embedded_images(const std::vector<PreparedVariant>& variants) {
    std::vector<EmbeddedImage> images;
    for (const PreparedVariant& variant : variants) {
        if (!variant.variant->cubin.empty()) {
            images.push_back({&variant, false, "image_" + std::to_string(images.size())});
        }
        if (!variant.variant->ptx.empty()) {
            images.push_back({&variant, true, "image_" + std::to_string(images.size())});
        }
    }
    return images;
}

// An #include of `path` exactly: header names have no escapes, so a path that needs one is refused.
std::string include_directive(const spec::Spec& spec, const std::string& path) {
    for (const char c : path) {
        if (c == '"' || c == '\\' || std::iscntrl(static_cast<unsigned char>(c))) {
            throw CodegenError(spec.file.string() + ": the path " + path +
                               " cannot appear in an #include (it contains a quote, a backslash "
                               "or a control character); expected a plain path (move or rename "
                               "the file)");
        }
    }
    return "#include \"" + path + "\"\n";
}

// The spec's defaults are the original: each parameter defined before the kernel source, so a
// kernel without #ifndef defaults compiles, and one whose #ifndef default differs gets the spec's.
// A definition the build itself passes (-D) still wins.
std::string default_defines(const spec::Spec& spec) {
    if (spec.parameters.empty()) return "";
    std::ostringstream out;
    out << "// The original: the spec's parameter defaults.\n";
    for (const spec::Parameter& parameter : spec.parameters)
        out << "#ifndef " << parameter.name << "\n#define " << parameter.name << " "
            << parameter.default_value << "\n#endif\n";
    return out.str() + "\n";
}

// The kernel named from the global namespace, so that generated names cannot shadow it.
std::string global_kernel_expression(const std::string& kernel) {
    return kernel.starts_with("::") ? kernel : "::" + kernel;
}
std::string global_kernel(const spec::Spec& spec) {
    return global_kernel_expression(spec.kernel);
}

bool is_host_code(const spec::Spec& spec, const std::vector<PreparedVariant>& variants) {
    return spec.compiler == "nvcc" || spec::main_definition_line(spec).has_value() ||
           std::any_of(variants.begin(), variants.end(), [](const PreparedVariant& variant) {
               return variant.variant->compiler == "nvcc";
           });
}

// The fallback of a kernel that stays in the user's file. The kernel's host stub has the mangled
// name of its image symbol, so an extern "C" declaration of that name links to the stub the
// user's own translation unit defines (a template kernel's only where that file instantiates it
// at the spec's kernel). With the original's own images (OptiML compiled them, target's flags)
// the declaration is weak: where the program defines no such stub, those images are the fallback.
std::string user_kernel_symbol(const std::vector<PreparedVariant>& variants,
                               const std::vector<PreparedVariant>& originals) {
    if (!originals.empty()) return originals.front().variant->lowered_name;
    return variants.empty() ? "" : variants.front().variant->lowered_name;
}

std::string user_kernel_declaration(const spec::Spec& spec,
                                    const std::vector<PreparedVariant>& variants,
                                    const std::vector<std::vector<PreparedVariant>>& originals) {
    const std::string symbol = user_kernel_symbol(variants, originals.front());
    if (symbol.empty())
        return "// " + spec.kernel +
               " lives among host code and no tuned variant names its symbol: no fallback, so\n"
               "// devices without a tuned image get cudaErrorInvalidDeviceFunction.\n\n";
    if (originals.front().empty())
        return "// The user's kernel stays in its file (host code beside it): the fallback is the\n"
               "// program's own " +
               spec.kernel + ", as the user's build compiled it, found by its symbol.\n" +
               "extern \"C\" void " + symbol + "();\n\n";
    std::string out =
        "// The user's kernel stays in its file (host code beside it): the fallback is the\n"
        "// program's own " +
        spec.kernel +
        " where its translation unit defines it (found by its symbol), else the\n"
        "// original's images below (the same file and flags, compiled by OptiML).\n"
        "extern \"C\" void " +
        symbol + "() __attribute__((weak));\n";
    // The other instantiations the drop-in form may launch, likewise.
    for (std::size_t i = 1; i < originals.size(); ++i)
        if (!originals[i].empty())
            out += "extern \"C\" void " + originals[i].front().variant->lowered_name +
                   "() __attribute__((weak));\n";
    return out + "\n";
}

// The body that returns the program's kernel `symbol` where it is defined, else the kernel of
// `table` for the device.
std::string weak_or_table(const std::string& symbol, const std::string& table,
                          std::string_view indent) {
    const std::string in(indent);
    return in + "if (&" + symbol + " != nullptr) return reinterpret_cast<const void*>(&" + symbol +
           ");\n" + in + "cudaKernel_t kernel = nullptr;\n" + in +
           "::optiml::rt::Dispatch dispatch{-1, -1, nullptr};\n" + in + "if (" + table +
           ".resolve(device, &kernel, &dispatch) != cudaSuccess) return nullptr;\n" + in +
           "return static_cast<const void*>(kernel);\n";
}

// original_kernel(device, instance): the original kernel at block_instances()[instance] (the
// spec's own for 0), or nullptr where the program holds no such kernel.
std::string original_kernel_definition(const spec::Spec& spec,
                                       const std::vector<PreparedVariant>& variants,
                                       const std::vector<std::vector<PreparedVariant>>& originals) {
    const std::vector<std::map<std::string, std::int64_t>> instances = block_instances(spec);
    const std::string symbol = user_kernel_symbol(variants, originals.front());
    const bool uses_device = std::any_of(originals.begin(), originals.end(),
                                         [](const auto& group) { return !group.empty(); });
    std::string out = std::string("const void* original_kernel(int") +
                      (uses_device ? " device" : "") + ", int" +
                      (instances.size() > 1 ? " instance" : "") + ") {\n";
    for (std::size_t i = 1; i < instances.size(); ++i) {
        const std::string name = instance_kernel(spec, instances[i]);
        if (originals[i].empty()) {
            out += "    // " + name +
                   ": neither the program nor OptiML compiled it.\n"
                   "    if (instance == " +
                   std::to_string(i) + ") return nullptr;\n";
            continue;
        }
        out += "    if (instance == " + std::to_string(i) + ") {  // " + name + "\n" +
               weak_or_table(originals[i].front().variant->lowered_name,
                             "original_" + std::to_string(i) + "_table", "        ") +
               "    }\n";
    }
    if (symbol.empty()) return out + "    return nullptr;\n}\n\n";
    if (originals.front().empty())
        return out + "    return reinterpret_cast<const void*>(&" + symbol + ");\n}\n\n";
    return out + weak_or_table(symbol, "original_table", "    ") + "}\n\n";
}

// original_kernel(device, instance) where nvcc compiles the kernel source in this file: each
// instantiation the drop-in form may launch is instantiated here.
std::string included_kernel_definition(const spec::Spec& spec) {
    const std::vector<std::map<std::string, std::int64_t>> instances = block_instances(spec);
    std::string out = std::string(
                          "// The original kernel as nvcc compiled it above.\n"
                          "const void* original_kernel(int, int") +
                      (instances.size() > 1 ? " instance" : "") + ") {\n";
    for (std::size_t i = 1; i < instances.size(); ++i)
        out += "    if (instance == " + std::to_string(i) +
               ") return reinterpret_cast<const void*>(&" +
               global_kernel_expression(instance_kernel(spec, instances[i])) + ");\n";
    return out + "    return reinterpret_cast<const void*>(&" + global_kernel(spec) + ");\n}\n\n";
}

}  // namespace

std::string generated_namespace(const spec::Spec& spec) {
    return "optiml_generated_" + spec.name;
}

std::string size_table(const PreparedVariant& variant) {
    return "size_" + std::to_string(variant.index) + "_table";
}

std::string render_images(const std::vector<PreparedVariant>& variants, std::string_view prefix_,
                          bool of_original) {
    const std::string prefix(prefix_);
    const std::vector<EmbeddedImage> images = embedded_images(variants);
    if (images.empty()) {
        return "// No tuned variants: every device runs the original kernel.\n"
               "OPTIML_CONSTINIT ::optiml::rt::KernelTable table(nullptr, 0);\n";
    }
    std::ostringstream out;
    for (const EmbeddedImage& image : images) {
        const Variant& variant = *image.variant->variant;
        const std::string& bytes = image.is_ptx ? variant.ptx : variant.cubin;
        out << "// "
            << (of_original ? "The original"
                            : (image.variant->parent < 0 ? "Variant " : "Size variant ") +
                                  std::to_string(image.variant->index))
            << " (" << variant.arch << "): " << (image.is_ptx ? "PTX, NUL-terminated" : "CUBIN")
            << ", " << bytes.size() << " bytes.\n"
            << "alignas(64) const unsigned char " << prefix << image.name << "[] = {\n"
            << hex_bytes(bytes, image.is_ptx, "    ") << "};\n\n";
    }
    out << "const ::optiml::rt::Image " << prefix << "images[] = {\n";
    for (const EmbeddedImage& image : images) {
        const Variant& variant = *image.variant->variant;
        out << "    {" << image.variant->arch << ", " << (image.is_ptx ? "true" : "false") << ", "
            << prefix << image.name << ", sizeof(" << prefix << image.name << "), "
            << string_literal(variant.lowered_name) << ", "
            << (of_original ? -1 : image.variant->index) << "},\n";
    }
    out << "};\n\n"
        << "// Constant-initialized: launchers work even from other static initializers.\n"
        << "OPTIML_CONSTINIT ::optiml::rt::KernelTable " << prefix << "table(" << prefix
        << "images, sizeof(" << prefix << "images) / sizeof(" << prefix << "images[0])"
        << (of_original ? ", true" : "") << ");\n";
    return out.str();
}

namespace {

// At exit, says when no launcher ever launched the tuned kernel (a leftover <<<>>>): with
// OPTIML_VERBOSE, and always in builds without NDEBUG.
std::string render_unused_report(const spec::Spec& spec,
                                 const std::vector<PreparedVariant>& variants) {
    if (variants.empty()) return "";
    return "#ifdef NDEBUG\n"
           "const ::optiml::rt::UnusedLauncherReport unused_report(table, " +
           string_literal(spec.name) +
           ", false);\n"
           "#else\n"
           "const ::optiml::rt::UnusedLauncherReport unused_report(table, " +
           string_literal(spec.name) +
           ", true);\n"
           "#endif\n\n";
}

}  // namespace

std::string render_source(const spec::Spec& spec, const std::vector<PreparedVariant>& variants,
                          const std::vector<std::string>& notes,
                          const std::vector<std::vector<PreparedVariant>>& originals) {
    const bool host_code = is_host_code(spec, variants);
    std::ostringstream out;
    out << render_dispatch_comment(spec, variants, notes) << "\n"
        << "// First, so that macros the kernel source defines cannot reach the declarations.\n"
        << include_directive(spec, header_path(spec.name).generic_string()) << "\n"
        << "#include <cstddef>\n\n";
    if (!host_code)
        out << default_defines(spec)
            << "// The user's kernel, compiled by nvcc at those defaults: the fallback.\n"
            << include_directive(spec, spec.source.generic_string()) << "\n";
    out << "namespace " << generated_namespace(spec) << " {\n";
    if (host_code) out << user_kernel_declaration(spec, variants, originals);
    // The architectures' variants in `table`; each size variant in a table of its own.
    std::vector<PreparedVariant> by_architecture;
    std::ostringstream size_tables;
    for (const PreparedVariant& variant : variants) {
        if (variant.parent < 0)
            by_architecture.push_back(variant);
        else
            size_tables << render_images({variant}, "size_" + std::to_string(variant.index) + "_")
                        << "\n";
    }
    out << "namespace {\n\n"
        << render_images(by_architecture) << "\n"
        << size_tables.str() << render_untuned_notes(spec, variants)
        << render_table_for_size(variants) << render_unused_report(spec, variants);
    for (std::size_t i = 0; host_code && i < originals.size(); ++i) {
        if (originals[i].empty()) continue;
        const std::string prefix = i == 0 ? "original_" : "original_" + std::to_string(i) + "_";
        out << render_images(originals[i], prefix, true) << "\n";
    }
    out << (host_code ? original_kernel_definition(spec, variants, originals)
                      : included_kernel_definition(spec));
    out << "}  // namespace\n"
        << "}  // namespace " << generated_namespace(spec) << "\n\n"
        << "namespace optiml {\n\n"
        << render_functions(spec, variants) << "\n"
        << "}  // namespace optiml\n";
    return out.str();
}

}  // namespace optiml::codegen
