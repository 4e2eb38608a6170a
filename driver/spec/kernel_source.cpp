// What a spec can check in its kernel source without compiling it: a template kernel named
// without template arguments, a main() the generated launcher would define a second time, and
// #define defaults that disagree with the spec's. Read from source/'s tokens (comments, strings and
// directives are tokens of their own), not parsed: it looks for the few shapes that break builds.
#include "driver/spec/kernel_source.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <iterator>
#include <string_view>

#include "driver/source/cuda_tokens.h"
#include "driver/source/tunable_knobs.h"
#include "driver/spec/detail/json_field.h"
#include "driver/spec/detail/spec_internal.h"

namespace optiml::spec {
namespace {

using source::Token;
using source::TokenKind;

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
std::vector<KernelDeclaration> kernel_declarations(std::string_view text) {
    static constexpr std::array<std::string_view, 5> kAnnotations = {
        "__launch_bounds__", "__attribute__", "__cluster_dims__", "alignas", "__declspec"};
    const std::vector<Token> code = source::code_tokens(text);
    const auto word = [&](std::size_t i) { return source::token_text(text, code[i]); };
    std::vector<KernelDeclaration> kernels;
    for (std::size_t at = 0; at < code.size(); ++at) {
        if (code[at].kind != TokenKind::Identifier || word(at) != "__global__") continue;
        KernelDeclaration kernel;
        kernel.line = code[at].line;
        // The declaration starts after the last ';', '{' or '}' before it.
        for (std::size_t i = at; i-- > 0;) {
            const std::string_view t = word(i);
            if (t == ";" || t == "{" || t == "}") break;
            if (t == "template" && i + 1 < at && word(i + 1).starts_with('<'))
                kernel.is_template = true;
        }
        std::string_view last_name;
        for (std::size_t i = at + 1; i < code.size(); ++i) {
            const std::string_view t = word(i);
            if (t == ";" || t == "{") break;
            if (code[i].kind == TokenKind::Identifier || code[i].kind == TokenKind::Number) {
                last_name = t;
            } else if (t == "(") {
                if (std::find(kAnnotations.begin(), kAnnotations.end(), last_name) ==
                    kAnnotations.end()) {
                    kernel.name = std::string(last_name);
                    break;
                }
                i = source::matching_bracket(code, text, i);  // the annotation's arguments
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

// `#define NAME value`: the name and the value as written on the directive's first line, comments
// left out; nullopt for another directive, a function-like macro or a define without a value.
std::optional<std::pair<std::string, std::string>> object_define(std::string_view directive) {
    const source::DirectiveWords d = source::directive_words(directive);
    if (d.word(0) != "define" || d.words.size() < 3 || d.words[1].kind != TokenKind::Identifier)
        return std::nullopt;
    // A '(' right after the name makes a function-like macro.
    if (d.words[2].begin == d.words[1].end && d.word(2) == "(") return std::nullopt;
    std::string value;
    for (const Token& token : source::lex(d.rest.substr(d.words[2].begin))) {
        const std::string_view t = source::token_text(d.rest.substr(d.words[2].begin), token);
        if (t.find('\n') != std::string_view::npos) break;
        value += token.kind == TokenKind::Comment ? std::string(t.size(), ' ') : std::string(t);
    }
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.pop_back();
    return std::pair(std::string(d.word(1)), std::move(value));
}

}  // namespace

std::vector<SourceDefault> source_defaults(const Spec& spec) {
    const std::string text = read_source(spec);
    std::vector<SourceDefault> found;
    for (const Token& token : source::lex(text)) {
        if (token.kind != TokenKind::Preprocessor) continue;
        const auto define = object_define(source::token_text(text, token));
        if (!define) continue;
        for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
            if (spec.parameters[i].name != define->first) continue;
            const std::optional<long long> value = source::integer_literal(define->second);
            found.push_back({i, define->second,
                             value ? std::optional<std::int64_t>(*value) : std::nullopt,
                             token.line});
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

// `int main(...) {` or `auto main(...) -> int {`, the type not the end of a longer name.
std::optional<int> main_definition_line(const Spec& spec) {
    const std::string text = read_source(spec);
    const std::vector<Token> code = source::code_tokens(text);
    const auto word = [&](std::size_t i) {
        return i < code.size() ? source::token_text(text, code[i]) : std::string_view();
    };
    for (std::size_t type = 0; type + 1 < code.size(); ++type) {
        if ((word(type) != "int" && word(type) != "auto") || word(type + 1) != "main" ||
            word(type + 2) != "(")
            continue;
        if (const std::size_t begin = code[type].begin; begin > 0) {
            const char before = text[begin - 1];
            if (std::isalnum(static_cast<unsigned char>(before)) || before == '_' ||
                before == ':' || before == '.' || before == '>')
                continue;
        }
        std::size_t after = type + 3;
        while (after < code.size() && word(after) != ")") ++after;
        ++after;
        if (word(after) == "->" && word(after + 1) == "int") after += 2;
        if (word(after) == "{") return code[type].line;
    }
    return std::nullopt;
}

namespace detail {

void check_kernel_source(const Spec& spec, const std::string& file_label) {
    const std::string text = read_source(spec);

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
    const std::vector<KernelDeclaration> kernels = kernel_declarations(text);
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
