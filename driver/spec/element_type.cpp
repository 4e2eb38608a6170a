// Element types as spelled in specs and in C++.
#include <array>
#include <utility>

#include "driver/spec/spec.h"

namespace optiml::spec {
namespace {

struct TypeInfo {
    ElementType type;
    const char* name;
    const char* cpp;
    std::size_t size;
};

constexpr std::array<TypeInfo, 10> kTypes = {{
    {ElementType::Int8, "int8", "signed char", 1},
    {ElementType::Int16, "int16", "short", 2},
    {ElementType::Int32, "int32", "int", 4},
    {ElementType::Int64, "int64", "long long", 8},
    {ElementType::UInt8, "uint8", "unsigned char", 1},
    {ElementType::UInt16, "uint16", "unsigned short", 2},
    {ElementType::UInt32, "uint32", "unsigned int", 4},
    {ElementType::UInt64, "uint64", "unsigned long long", 8},
    {ElementType::Float32, "float32", "float", 4},
    {ElementType::Float64, "float64", "double", 8},
}};

const TypeInfo& info(ElementType type) {
    for (const TypeInfo& entry : kTypes) {
        if (entry.type == type) return entry;
    }
    return kTypes.front();  // unreachable: every enumerator is in the table
}

}  // namespace

std::string to_string(ElementType type) {
    return info(type).name;
}
std::size_t size_of(ElementType type) {
    return info(type).size;
}
std::string cpp_type(ElementType type) {
    return info(type).cpp;
}

bool is_floating(ElementType type) {
    return type == ElementType::Float32 || type == ElementType::Float64;
}

bool is_signed_integer(ElementType type) {
    return type == ElementType::Int8 || type == ElementType::Int16 || type == ElementType::Int32 ||
           type == ElementType::Int64;
}

std::optional<ElementType> parse_element_type(std::string_view name) {
    for (const TypeInfo& entry : kTypes) {
        if (entry.name == name) return entry.type;
    }
    return std::nullopt;
}

std::string to_string(Fill::Kind kind) {
    switch (kind) {
        case Fill::Kind::Uniform:
            return "uniform";
        case Fill::Kind::Normal:
            return "normal";
        case Fill::Kind::Constant:
            return "constant";
        case Fill::Kind::Iota:
            return "iota";
        case Fill::Kind::File:
            return "file";
        case Fill::Kind::Generator:
            return "generator";
    }
    return "uniform";  // unreachable
}

std::string to_string(Role role) {
    switch (role) {
        case Role::Input:
            return "input";
        case Role::Output:
            return "output";
        case Role::InOut:
            return "inout";
    }
    return "input";  // unreachable
}

}  // namespace optiml::spec
