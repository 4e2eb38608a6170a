// The ELF and PTX readers and the name matching that find nvcc's kernels.
#include "driver/compile/detail/cubin_symbols.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "driver/compile/kernel_symbol.h"
#include "driver/compile/nvrtc_compiler.h"

namespace optiml::compile {
namespace {

TEST(CubinSymbols, ListsTheEntriesOfARealCubinOnly) {
    CompileRequest request;
    request.source_name = "two.cu";
    request.source_text =
        "__device__ float helper(float x) { return x + 1; }\n"
        "extern \"C\" __global__ void first(float* x) { x[0] = helper(x[0]); }\n"
        "__global__ void second(int* y) { y[0] = 1; }\n";
    request.name_expression = "first";
    const CompileResult result = compile(request);
    ASSERT_TRUE(result.ok) << result.log;
    std::vector<std::string> entries = cubin_entry_symbols(result.binary);
    std::sort(entries.begin(), entries.end());
    EXPECT_EQ(entries, (std::vector<std::string>{"_Z6secondPi", "first"}));
}

TEST(CubinSymbols, DamagedBytesGiveNothing) {
    EXPECT_TRUE(cubin_entry_symbols("").empty());
    EXPECT_TRUE(cubin_entry_symbols("not an elf file at all, but long enough to read a header"
                                    " from it without running off its end")
                    .empty());
    std::string header(0x40, '\0');
    header.replace(0, 6,
                   "\x7f"
                   "ELF\x02\x01");
    header[0x28] = '\x7f';  // section table far past the end
    header[0x3a] = 0x40;
    header[0x3c] = 3;
    EXPECT_TRUE(cubin_entry_symbols(header).empty());
}

TEST(CubinSymbols, ReadsPtxEntries) {
    const std::string ptx =
        ".visible .entry _Z10scale_rowsILi128EEvPfi(\n\t.param .u64 a\n)\n"
        ".visible .entry plain (\n)\n.func helper(\n)\n";
    EXPECT_EQ(ptx_entry_symbols(ptx),
              (std::vector<std::string>{"_Z10scale_rowsILi128EEvPfi", "plain"}));
}

TEST(KernelSymbol, MatchesNameExpressionsToDemangledNames) {
    EXPECT_EQ(kernel_name_of_symbol("_Z10scale_rowsILi32EEvPfi"), "scale_rows<32>");
    EXPECT_EQ(kernel_name_of_symbol("_Z5plainPf"), "plain");
    EXPECT_EQ(kernel_name_of_symbol("saxpy"), "saxpy");
    const std::vector<std::string> symbols{"_Z10scale_rowsILi128EEvPfi",
                                           "_Z10scale_rowsILi32EEvPfi", "_Z5plainPf"};
    EXPECT_EQ(find_kernel_symbol(symbols, "scale_rows<32>"), "_Z10scale_rowsILi32EEvPfi");
    EXPECT_EQ(find_kernel_symbol(symbols, ":: scale_rows< 128 >"), "_Z10scale_rowsILi128EEvPfi");
    EXPECT_EQ(find_kernel_symbol(symbols, "plain"), "_Z5plainPf");
    EXPECT_EQ(find_kernel_symbol(symbols, "scale_rows<64>"), std::nullopt);
    EXPECT_EQ(find_kernel_symbol({"_Z1kPf", "_Z1kPi"}, "k"), std::nullopt);  // overloaded
    // A tuned template argument names a parameter; its -D value is what the symbol holds.
    EXPECT_EQ(find_kernel_symbol(symbols, expand_defines("scale_rows<rows>", {{"rows", 128}})),
              "_Z10scale_rowsILi128EEvPfi");
    EXPECT_EQ(expand_defines("ns::k<rows, rows_x, (rows)>", {{"rows", 8}}),
              "ns::k<8, rows_x, (8)>");
}

}  // namespace
}  // namespace optiml::compile
