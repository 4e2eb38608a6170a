// The generated .cu: includes the user's kernel (the fallback nvcc compiles), embeds the tuned
// images as byte arrays and ties them to the runtime's KernelTable. A kernel among host code
// (compiled by nvcc, or a file with main()) is not included: that would compile the user's whole
// .cu a second time (main twice, every host function twice). The fallback is then the program's
// own kernel, as the user's build compiled it, found by its symbol at link time.
#include <algorithm>
#include <cctype>
#include <sstream>

#include "driver/spec/kernel_source.h"

#include "driver/codegen/cpp_text.h"
#include "driver/codegen/render.h"

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
std::string global_kernel(const spec::Spec& spec) {
    return spec.kernel.starts_with("::") ? spec.kernel : "::" + spec.kernel;
}

bool is_host_code(const spec::Spec& spec, const std::vector<PreparedVariant>& variants) {
    return spec.compiler == "nvcc" || spec::main_definition_line(spec).has_value() ||
           std::any_of(variants.begin(), variants.end(), [](const PreparedVariant& variant) {
               return variant.variant->compiler == "nvcc";
           });
}

// The fallback of a kernel that stays in the user's file. The kernel's host stub has the mangled
// name of its image symbol (the same for every variant: one name expression), so an extern "C"
// declaration of that name links to the stub the user's own translation unit defines (a template
// kernel's only where that file instantiates it at the spec's kernel, as its own launch does).
std::string user_kernel_symbol(const std::vector<PreparedVariant>& variants) {
    return variants.empty() ? "" : variants.front().variant->lowered_name;
}

std::string user_kernel_declaration(const spec::Spec& spec,
                                    const std::vector<PreparedVariant>& variants) {
    const std::string symbol = user_kernel_symbol(variants);
    if (symbol.empty())
        return "// " + spec.kernel +
               " lives among host code and no tuned variant names its symbol: no fallback, so\n"
               "// devices without a tuned image get cudaErrorInvalidDeviceFunction.\n\n";
    return "// The user's kernel stays in its file (host code beside it): the fallback is the\n"
           "// program's own " +
           spec.kernel + ", as the user's build compiled it, found by its symbol.\n" +
           "extern \"C\" void " + symbol + "();\n\n";
}

std::string user_kernel_address(const std::vector<PreparedVariant>& variants) {
    const std::string symbol = user_kernel_symbol(variants);
    return symbol.empty() ? "nullptr" : "reinterpret_cast<const void*>(&" + symbol + ")";
}

}  // namespace

std::string generated_namespace(const spec::Spec& spec) {
    return "optiml_generated_" + spec.name;
}

std::string render_images(const std::vector<PreparedVariant>& variants) {
    const std::vector<EmbeddedImage> images = embedded_images(variants);
    if (images.empty()) {
        return "// No tuned variants: every device runs the original kernel.\n"
               "OPTIML_CONSTINIT ::optiml::rt::KernelTable table(nullptr, 0);\n";
    }
    std::ostringstream out;
    for (const EmbeddedImage& image : images) {
        const Variant& variant = *image.variant->variant;
        const std::string& bytes = image.is_ptx ? variant.ptx : variant.cubin;
        out << "// Variant " << image.variant->index << " (" << variant.arch
            << "): " << (image.is_ptx ? "PTX, NUL-terminated" : "CUBIN") << ", " << bytes.size()
            << " bytes.\n"
            << "alignas(64) const unsigned char " << image.name << "[] = {\n"
            << hex_bytes(bytes, image.is_ptx, "    ") << "};\n\n";
    }
    out << "const ::optiml::rt::Image images[] = {\n";
    for (const EmbeddedImage& image : images) {
        const Variant& variant = *image.variant->variant;
        out << "    {" << image.variant->arch << ", " << (image.is_ptx ? "true" : "false") << ", "
            << image.name << ", sizeof(" << image.name << "), "
            << string_literal(variant.lowered_name) << ", " << image.variant->index << "},\n";
    }
    out << "};\n\n"
        << "// Constant-initialized: launchers work even from other static initializers.\n"
        << "OPTIML_CONSTINIT ::optiml::rt::KernelTable table(images, sizeof(images) / "
           "sizeof(images[0]));\n";
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
                          const std::vector<std::string>& notes) {
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
    if (host_code) out << user_kernel_declaration(spec, variants);
    out << "namespace {\n\n" << render_images(variants) << "\n" << render_unused_report(spec, variants);
    if (host_code)
        out << "const void* original_kernel() { return " << user_kernel_address(variants)
            << "; }\n\n";
    else
        out << "// The original kernel as nvcc compiled it above.\n"
            << "const void* original_kernel() { return reinterpret_cast<const void*>(&"
            << global_kernel(spec) << "); }\n\n";
    out << "}  // namespace\n"
        << "}  // namespace " << generated_namespace(spec) << "\n\n"
        << "namespace optiml {\n\n"
        << render_functions(spec, variants) << "\n"
        << "}  // namespace optiml\n";
    return out.str();
}

}  // namespace optiml::codegen
