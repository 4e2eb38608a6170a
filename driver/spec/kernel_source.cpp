// What a spec can check in its kernel source without compiling it: a template kernel named
// without template arguments, a main() the generated launcher would define a second time, and
// #define defaults that disagree with the spec's. A light scan (comments and strings blanked,
// preprocessor lines read apart), not a C++ parser: it looks for the few shapes that break builds.
#include "driver/spec/kernel_source.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <iterator>
#include <regex>

#include "driver/spec/detail/json_field.h"
#include "driver/spec/detail/spec_internal.h"

namespace optiml::spec {
namespace {

bool is_name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// The text with comments, string and character literals replaced by spaces (newlines kept, so
// offsets still give line numbers).
std::string blank_comments_and_strings(const std::string& text) {
    std::string out = text;
    enum class State { Code, Line, Block, String, Char } state = State::Code;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const char c = text[i];
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        switch (state) {
            case State::Code:
                if (c == '/' && next == '/')
                    state = State::Line;
                else if (c == '/' && next == '*')
                    state = State::Block;
                else if (c == '"')
                    state = State::String;
                else if (c == '\'' &&
                         !(i > 0 && std::isxdigit(static_cast<unsigned char>(text[i - 1]))))
                    state = State::Char;  // 1'000'000 is a digit separator, not a literal
                else
                    continue;
                out[i] = ' ';
                break;
            case State::Line:
                if (c == '\n')
                    state = State::Code;
                else
                    out[i] = ' ';
                break;
            case State::Block:
                if (c == '*' && next == '/') {
                    out[i] = out[i + 1] = ' ';
                    ++i;
                    state = State::Code;
                } else if (c != '\n') {
                    out[i] = ' ';
                }
                break;
            case State::String:
            case State::Char:
                if (c == '\\' && next != '\0') {
                    out[i] = ' ';
                    if (next != '\n') out[i + 1] = ' ';
                    ++i;
                } else if (c == (state == State::String ? '"' : '\'') || c == '\n') {
                    out[i] = ' ';
                    state = State::Code;
                } else {
                    out[i] = ' ';
                }
                break;
        }
    }
    return out;
}

// Preprocessor lines blanked too: what is left is declarations and code.
std::string blank_directives(const std::string& text) {
    std::string out = text;
    bool line_start = true;
    bool in_directive = false;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const char c = out[i];
        if (c == '\n') {
            const bool continued = i > 0 && out[i - 1] == '\\';
            line_start = true;
            in_directive = in_directive && continued;
            continue;
        }
        if (line_start && c == '#') in_directive = true;
        if (!std::isspace(static_cast<unsigned char>(c))) line_start = false;
        if (in_directive) out[i] = ' ';
    }
    return out;
}

int line_of(const std::string& text, std::size_t offset) {
    return 1 + static_cast<int>(std::count(
                   text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// The last component of a name expression: "ns::gemm<float, 4>" -> "gemm".
std::string base_name(const std::string& expression) {
    std::string name = expression.substr(0, expression.find('<'));
    if (const auto colons = name.rfind("::"); colons != std::string::npos)
        name = name.substr(colons + 2);
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
    return name;
}

struct KernelDeclaration {
    std::string name;
    bool is_template = false;
    int line = 0;
};

// Every __global__ function: the name before its parameter list (skipping __launch_bounds__(...)
// and attributes), and whether `template <...>` opens its declaration.
std::vector<KernelDeclaration> kernel_declarations(const std::string& code) {
    static const std::string kGlobal = "__global__";
    static const std::vector<std::string> kAnnotations = {
        "__launch_bounds__", "__attribute__", "__cluster_dims__", "alignas", "__declspec"};
    std::vector<KernelDeclaration> kernels;
    for (std::size_t at = code.find(kGlobal); at != std::string::npos;
         at = code.find(kGlobal, at + kGlobal.size())) {
        if ((at > 0 && is_name_char(code[at - 1])) ||
            (at + kGlobal.size() < code.size() && is_name_char(code[at + kGlobal.size()])))
            continue;
        const std::size_t start = code.find_last_of(";{}", at);
        const std::string prefix = code.substr(start == std::string::npos ? 0 : start + 1,
                                               at - (start == std::string::npos ? 0 : start + 1));
        KernelDeclaration kernel;
        static const std::regex template_head(R"(\btemplate\s*<)");
        kernel.is_template = std::regex_search(prefix, template_head);
        kernel.line = line_of(code, at);
        std::string last_name;
        for (std::size_t i = at + kGlobal.size(); i < code.size(); ++i) {
            const char c = code[i];
            if (c == ';' || c == '{') break;
            if (is_name_char(c)) {
                const std::size_t begin = i;
                while (i < code.size() && is_name_char(code[i])) ++i;
                last_name = code.substr(begin, i - begin);
                --i;
            } else if (c == '(') {
                const bool annotation = std::find(kAnnotations.begin(), kAnnotations.end(),
                                                  last_name) != kAnnotations.end();
                if (!annotation) {
                    kernel.name = last_name;
                    break;
                }
                int depth = 0;  // skip the annotation's balanced parentheses
                for (; i < code.size(); ++i) {
                    if (code[i] == '(') ++depth;
                    if (code[i] == ')' && --depth == 0) break;
                }
            }
        }
        if (!kernel.name.empty()) kernels.push_back(std::move(kernel));
    }
    return kernels;
}

std::string read_source(const Spec& spec) {
    std::ifstream stream(spec.source, std::ios::binary);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

std::optional<std::int64_t> integer_literal(std::string text) {
    while (!text.empty() &&
           (text.front() == '(' || std::isspace(static_cast<unsigned char>(text.front()))))
        text.erase(text.begin());
    while (!text.empty() &&
           (text.back() == ')' || std::isspace(static_cast<unsigned char>(text.back())) ||
            text.back() == 'u' || text.back() == 'U' || text.back() == 'l' || text.back() == 'L'))
        text.pop_back();
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

std::vector<SourceDefault> source_defaults(const Spec& spec) {
    const std::string code = blank_comments_and_strings(read_source(spec));
    static const std::regex define_line(R"(^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([^\n]*?)[ \t]*$)",
                                        std::regex::multiline);
    std::vector<SourceDefault> found;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), define_line);
         it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1].str();
        for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
            if (spec.parameters[i].name != name) continue;
            found.push_back({i, (*it)[2].str(), integer_literal((*it)[2].str()),
                             line_of(code, static_cast<std::size_t>(it->position(0)))});
        }
    }
    return found;
}

std::vector<std::string> default_mismatches(const Spec& spec) {
    std::vector<std::string> warnings;
    for (const SourceDefault& source_default : source_defaults(spec)) {
        const Parameter& parameter = spec.parameters[source_default.parameter];
        if (source_default.value == parameter.default_value) continue;
        warnings.push_back(
            spec.source_as_written + ":" + std::to_string(source_default.line) + " defines " +
            parameter.name + " as " + source_default.text + ", but " + spec.file.string() +
            ": parameters[" + std::to_string(source_default.parameter) + "].default is " +
            std::to_string(parameter.default_value) +
            "; the spec's default is the original everywhere (tuning, verification and the "
            "launcher's nvcc fallback): make the two agree");
    }
    return warnings;
}

std::optional<int> main_definition_line(const Spec& spec) {
    const std::string code = blank_directives(blank_comments_and_strings(read_source(spec)));
    static const std::regex main_definition(
        R"((^|[^\w:.>])(int|auto)\s+main\s*\([^)]*\)\s*(->\s*int\s*)?\{)");
    std::smatch match;
    if (!std::regex_search(code, match, main_definition)) return std::nullopt;
    return line_of(code, static_cast<std::size_t>(match.position(2)));
}

namespace detail {

void check_kernel_source(const Spec& spec, const std::string& file_label) {
    const std::string text = read_source(spec);
    const std::string code = blank_directives(blank_comments_and_strings(text));

    // Only NVRTC's launcher compiles the file again; with nvcc it launches the program's own.
    if (const std::optional<int> line = main_definition_line(spec);
        line && spec.compiler == "nvrtc") {
        fail(file_label, "source",
             "\"" + spec.source_as_written + "\" defines main() (line " + std::to_string(*line) +
                 "); with \"compiler\": \"nvrtc\" the launcher OptiML generates compiles this "
                 "file into a translation unit of its own, so the program would define main twice",
             "a file with the kernel and its device code only, or \"compiler\": \"auto\" or "
             "\"nvcc\" (which leave the kernel where it is)");
    }

    const std::string wanted = base_name(spec.kernel);
    if (spec.kernel.find('<') != std::string::npos) return;
    bool plain = false;
    const KernelDeclaration* template_kernel = nullptr;
    const std::vector<KernelDeclaration> kernels = kernel_declarations(code);
    for (const KernelDeclaration& kernel : kernels) {
        if (kernel.name != wanted) continue;
        if (kernel.is_template)
            template_kernel = template_kernel ? template_kernel : &kernel;
        else
            plain = true;
    }
    if (template_kernel && !plain) {
        fail(file_label, "kernel",
             "\"" + spec.kernel + "\" is a function template (" + spec.source_as_written +
                 " line " + std::to_string(template_kernel->line) +
                 "), and a template has no single kernel to tune",
             "a name expression with its template arguments, e.g. \"" + spec.kernel +
                 "<32>\" or \"" + spec.kernel + "<float>\"");
    }
}

}  // namespace detail
}  // namespace optiml::spec
