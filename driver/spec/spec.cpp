// parse_spec(): reads, validates and normalizes a spec; and the Spec's own queries.
#include "driver/spec/spec.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <string_view>

#include "driver/spec/detail/json_field.h"
#include "driver/spec/detail/spec_internal.h"

namespace optiml::spec {

namespace detail {

bool is_identifier(const std::string& name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

bool is_cpp_keyword(const std::string& name) {
    static constexpr std::string_view kKeywords[] = {
        "alignas",       "alignof",     "and",
        "and_eq",        "asm",         "auto",
        "bitand",        "bitor",       "bool",
        "break",         "case",        "catch",
        "char",          "char8_t",     "char16_t",
        "char32_t",      "class",       "compl",
        "concept",       "const",       "consteval",
        "constexpr",     "constinit",   "const_cast",
        "continue",      "co_await",    "co_return",
        "co_yield",      "decltype",    "default",
        "delete",        "do",          "double",
        "dynamic_cast",  "else",        "enum",
        "explicit",      "export",      "extern",
        "false",         "float",       "for",
        "friend",        "goto",        "if",
        "inline",        "int",         "long",
        "mutable",       "namespace",   "new",
        "noexcept",      "not",         "not_eq",
        "nullptr",       "operator",    "or",
        "or_eq",         "private",     "protected",
        "public",        "register",    "reinterpret_cast",
        "requires",      "return",      "short",
        "signed",        "sizeof",      "static",
        "static_assert", "static_cast", "struct",
        "switch",        "template",    "this",
        "thread_local",  "throw",       "true",
        "try",           "typedef",     "typeid",
        "typename",      "union",       "unsigned",
        "using",         "virtual",     "void",
        "volatile",      "wchar_t",     "while",
        "xor",           "xor_eq"};
    return std::find(std::begin(kKeywords), std::end(kKeywords), name) != std::end(kKeywords);
}

}  // namespace detail

Spec parse_spec(const nlohmann::json& json, const std::filesystem::path& file) {
    const std::string label = file.string();
    if (!json.is_object()) {
        detail::fail(label, "(file)", "the document is " + detail::describe(json),
                     "a JSON object with the spec's fields (see docs/spec.md)");
    }
    Spec spec;
    std::error_code error;
    spec.file = std::filesystem::absolute(file, error).lexically_normal();
    if (error) spec.file = file;
    try {
        detail::reject_unfinished(json, label);
        detail::read_fields(json, label, spec);
        detail::validate(spec, label);
        detail::check_kernel_source(spec, label);
        spec.normalized = detail::normalize(spec);
    } catch (const nlohmann::json::exception&) {
        // The readers check every type before converting, so this is a bug; still, never let a
        // JSON-library message reach the user.
        detail::fail(label, "(file)", "the spec could not be read",
                     "a spec as docs/spec.md describes");
    }
    return spec;
}

Spec at_problem(const Spec& spec, const ProblemSize& problem) {
    Spec out = spec;
    for (const auto& [name, value] : problem.scalars) {
        bool found = false;
        for (Argument& argument : out.arguments) {
            if (argument.name != name || argument.is_pointer || is_floating(argument.type))
                continue;
            argument.integer_value = value;
            argument.value = static_cast<double>(value);
            found = true;
        }
        for (LaunchArgument& argument : out.launch_arguments) {
            if (argument.name != name) continue;
            argument.value = value;
            found = true;
        }
        if (!found)
            throw std::invalid_argument(spec.file.string() + ": problem " + describe(problem) +
                                        ": '" + name + "' is not an integer scalar argument");
    }
    out.problems.clear();
    out.normalized = detail::normalize(out);
    return out;
}

std::string describe(const ProblemSize& size) {
    std::string text;
    for (const auto& [name, value] : size.scalars)
        text += (text.empty() ? "" : ", ") + name + "=" + std::to_string(value);
    return text;
}

double dispatch_size(const ProblemSize& size) {
    double product = 1.0;
    for (const auto& [name, value] : size.scalars) product *= static_cast<double>(value);
    return product;
}

std::string to_string(ColdCache cold_cache) {
    return cold_cache == ColdCache::Rotate ? "rotate" : "flush";
}

std::string to_string(TimingCondition condition) {
    return condition == TimingCondition::Warm ? "warm" : "cold";
}

std::map<std::string, std::int64_t> Spec::default_config() const {
    std::map<std::string, std::int64_t> config;
    for (const Parameter& parameter : parameters) config[parameter.name] = parameter.default_value;
    return config;
}

expr::Env Spec::environment(const std::map<std::string, std::int64_t>& config,
                            const ProblemSize* size) const {
    expr::Env env;
    for (const Argument& argument : arguments) {
        if (!argument.is_pointer && !is_floating(argument.type))
            env[argument.name] = argument.integer_value;
    }
    for (const LaunchArgument& argument : launch_arguments) env[argument.name] = argument.value;
    if (size)
        for (const auto& [scalar, value] : size->scalars) env[scalar] = value;
    for (const auto& [parameter, value] : config) env[parameter] = value;
    return env;
}

bool is_search_strategy(std::string_view name) {
    return std::find(kSearchStrategies.begin(), kSearchStrategies.end(), name) !=
           kSearchStrategies.end();
}

std::string search_strategies_text() {
    std::string text;
    for (const std::string_view name : kSearchStrategies)
        text += (text.empty() ? "" : ", ") + std::string(name);
    return text;
}

}  // namespace optiml::spec
