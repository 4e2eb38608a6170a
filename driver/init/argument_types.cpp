// C++ spellings of the spec's element types, including the <cstdint> names kernels use.
#include "driver/init/detail/argument_types.h"

#include <array>
#include <utility>

#include "driver/source/cuda_tokens.h"
#include "driver/source/tunable_knobs.h"

namespace optiml::init {

std::string base_type(const source::KernelParameter& parameter) {
    std::string text;
    for (const source::Token& token : source::code_tokens(parameter.declaration)) {
        const std::string_view word = source::token_text(parameter.declaration, token);
        if (word == "const" || word == "volatile" || word == "__restrict__" ||
            word == "__restrict" || word == "restrict" || word == "*" || word == "&" ||
            word == "__grid_constant__" || word == parameter.name)
            continue;
        text += (text.empty() ? "" : " ") + std::string(word);
    }
    return text;
}

std::optional<spec::ElementType> element_type(const std::string& base_type) {
    using spec::ElementType;
    static const std::array<std::pair<std::string_view, ElementType>, 27> kSpellings = {{
        {"float", ElementType::Float32},
        {"double", ElementType::Float64},
        {"int", ElementType::Int32},
        {"signed", ElementType::Int32},
        {"signed int", ElementType::Int32},
        {"int32_t", ElementType::Int32},
        {"unsigned", ElementType::UInt32},
        {"unsigned int", ElementType::UInt32},
        {"uint32_t", ElementType::UInt32},
        {"long long", ElementType::Int64},
        {"long long int", ElementType::Int64},
        {"int64_t", ElementType::Int64},
        {"unsigned long long", ElementType::UInt64},
        {"unsigned long long int", ElementType::UInt64},
        {"uint64_t", ElementType::UInt64},
        {"size_t", ElementType::UInt64},
        {"short", ElementType::Int16},
        {"int16_t", ElementType::Int16},
        {"unsigned short", ElementType::UInt16},
        {"uint16_t", ElementType::UInt16},
        {"char", ElementType::Int8},
        {"signed char", ElementType::Int8},
        {"int8_t", ElementType::Int8},
        {"unsigned char", ElementType::UInt8},
        {"uint8_t", ElementType::UInt8},
        {"std::int32_t", ElementType::Int32},
        {"std::uint32_t", ElementType::UInt32},
    }};
    for (const auto& [spelling, type] : kSpellings)
        if (spelling == base_type) return type;
    return std::nullopt;
}

std::map<std::string, std::string> template_type_defaults(std::string_view source,
                                                          const source::KernelText& kernel) {
    std::map<std::string, std::string> defaults;
    for (const source::TemplateParameter& p : source::template_parameters(source, kernel))
        if ((p.kind == "typename" || p.kind == "class") && !p.default_value.empty())
            defaults[p.name] = p.default_value;
    return defaults;
}

std::string resolved_base_type(const source::KernelParameter& parameter,
                               const std::map<std::string, std::string>& type_defaults) {
    const std::string base = base_type(parameter);
    const auto found = type_defaults.find(base);
    return found != type_defaults.end() ? found->second : base;
}

}  // namespace optiml::init
