// Template arguments read from demangled kernel names, as cu++filt spells them.
#include "driver/init/detail/template_arguments.h"

#include <gtest/gtest.h>

namespace optiml::init {
namespace {

using Arguments = std::vector<std::string>;

TEST(TemplateArguments, ReadsEachArgumentOfTheKernelsTemplateId) {
    EXPECT_EQ(template_arguments("void MatrixMulCUDA<32>(float*, float*, float*, int, int)",
                                 "MatrixMulCUDA"),
              Arguments{"32"});
    EXPECT_EQ(template_arguments("void gemm<float, 128u, true>(float const*, float*)", "gemm"),
              (Arguments{"float", "128u", "true"}));
    EXPECT_EQ(template_arguments("void ns::k<(char)65, Tile<4, 4> >(int)", "k"),
              (Arguments{"(char)65", "Tile<4, 4>"}));
}

TEST(TemplateArguments, NoTemplateIdOfThatKernelIsNone) {
    EXPECT_TRUE(template_arguments("axpy(int, float, float const*, float*)", "axpy").empty());
    EXPECT_TRUE(template_arguments("", "k").empty());
    // Another kernel whose name ends in the same letters.
    EXPECT_TRUE(template_arguments("void bigk<4>(int)", "k").empty());
    EXPECT_TRUE(template_arguments("void k<4(int)", "k").empty());  // unbalanced
}

}  // namespace
}  // namespace optiml::init
