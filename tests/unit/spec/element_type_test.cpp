// Element types: spec names, sizes, C++ spellings, and the round trip through parse_element_type.
#include <gtest/gtest.h>

#include <string>

#include "driver/spec/spec.h"

namespace optiml::spec {
namespace {

struct TypeRow {
    ElementType type;
    const char* name;
    std::size_t size;
    bool floating;
    const char* cpp;
};

TEST(ElementType, NamesSizesAndCppSpellings) {
    const TypeRow rows[] = {
        {ElementType::Int8, "int8", 1, false, "signed char"},
        {ElementType::Int16, "int16", 2, false, "short"},
        {ElementType::Int32, "int32", 4, false, "int"},
        {ElementType::Int64, "int64", 8, false, "long long"},
        {ElementType::UInt8, "uint8", 1, false, "unsigned char"},
        {ElementType::UInt16, "uint16", 2, false, "unsigned short"},
        {ElementType::UInt32, "uint32", 4, false, "unsigned int"},
        {ElementType::UInt64, "uint64", 8, false, "unsigned long long"},
        {ElementType::Float32, "float32", 4, true, "float"},
        {ElementType::Float64, "float64", 8, true, "double"},
    };
    for (const TypeRow& row : rows) {
        EXPECT_EQ(to_string(row.type), row.name);
        EXPECT_EQ(size_of(row.type), row.size) << row.name;
        EXPECT_EQ(is_floating(row.type), row.floating) << row.name;
        EXPECT_EQ(cpp_type(row.type), row.cpp) << row.name;
        EXPECT_EQ(parse_element_type(row.name), row.type) << row.name;
    }
    EXPECT_EQ(parse_element_type("float"), std::nullopt);
    EXPECT_EQ(parse_element_type("Int32"), std::nullopt);
    EXPECT_TRUE(is_signed_integer(ElementType::Int64));
    EXPECT_FALSE(is_signed_integer(ElementType::UInt64));
    EXPECT_FALSE(is_signed_integer(ElementType::Float32));
}

TEST(ElementType, FillKindsAndRolesAreSpelledAsInSpecs) {
    EXPECT_EQ(to_string(Fill::Kind::Uniform), "uniform");
    EXPECT_EQ(to_string(Fill::Kind::Normal), "normal");
    EXPECT_EQ(to_string(Fill::Kind::Constant), "constant");
    EXPECT_EQ(to_string(Fill::Kind::Iota), "iota");
    EXPECT_EQ(to_string(Role::Input), "input");
    EXPECT_EQ(to_string(Role::Output), "output");
    EXPECT_EQ(to_string(Role::InOut), "inout");
}

}  // namespace
}  // namespace optiml::spec
