#include "driver/source/tunable_knobs.h"

#include <gtest/gtest.h>

namespace optiml::source {
namespace {

TEST(MacroDefaults, IfndefDefinePairsInOrder) {
    const std::string source = R"(// #ifndef commented
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef  tile   // a comment between
/* and another */
#  define tile (4)
#endif
#ifndef element_t
#define element_t float
#endif
#ifndef other
#define not_other 3
#endif
#ifndef fn
#define fn(x) x
#endif
#define plain 7
const char* s = "#ifndef x";
)";
    const std::vector<source::MacroDefault> found = source::macro_defaults(source);
    ASSERT_EQ(found.size(), 3u);
    EXPECT_EQ(found[0].name, "block_size_x");
    EXPECT_EQ(found[0].value, "256");
    EXPECT_EQ(found[0].integer, 256);
    EXPECT_EQ(found[0].line, 3);
    EXPECT_EQ(found[1].name, "tile");
    EXPECT_EQ(found[1].value, "(4)");
    EXPECT_EQ(found[1].integer, 4);
    EXPECT_EQ(found[2].name, "element_t");
    EXPECT_EQ(found[2].value, "float");
    EXPECT_FALSE(found[2].integer.has_value());
}

TEST(IntegerLiteral, CommonSpellings) {
    EXPECT_EQ(source::integer_literal("32"), 32);
    EXPECT_EQ(source::integer_literal(" 0x20 "), 32);
    EXPECT_EQ(source::integer_literal("((8))"), 8);
    EXPECT_EQ(source::integer_literal("16u"), 16);
    EXPECT_EQ(source::integer_literal("-1"), -1);
    EXPECT_FALSE(source::integer_literal("1.5f"));
    EXPECT_FALSE(source::integer_literal("2 * 4"));
    EXPECT_FALSE(source::integer_literal(""));
}

TEST(TemplateParameters, NamesKindsAndDefaults) {
    const std::string source =
        "template <typename T, int TILE = 16, unsigned int UNROLL=(2), bool B>\n"
        "__global__ void k(T* x) { x[0] = TILE; }\n"
        "__global__ void plain(float* x) { x[0] = 0; }\n";
    const std::vector<source::TemplateParameter> found =
        source::template_parameters(source, source::find_kernel(source, "k"));
    ASSERT_EQ(found.size(), 4u);
    EXPECT_EQ(found[0].kind, "typename");
    EXPECT_EQ(found[0].name, "T");
    EXPECT_EQ(found[0].default_value, "");
    EXPECT_EQ(found[1].kind, "int");
    EXPECT_EQ(found[1].name, "TILE");
    EXPECT_EQ(found[1].integer_default, 16);
    EXPECT_EQ(found[2].kind, "unsigned int");
    EXPECT_EQ(found[2].name, "UNROLL");
    EXPECT_EQ(found[2].default_value, "(2)");
    EXPECT_EQ(found[2].integer_default, 2);
    EXPECT_EQ(found[3].kind, "bool");
    EXPECT_EQ(found[3].name, "B");
    EXPECT_TRUE(source::template_parameters(source, source::find_kernel(source, "plain")).empty());
}

}  // namespace
}  // namespace optiml::source
