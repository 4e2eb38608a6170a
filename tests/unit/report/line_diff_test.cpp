#include <gtest/gtest.h>

#include "driver/report/detail/line_diff.h"

namespace optiml::report {
namespace {

TEST(LineDiff, EqualTextsHaveNoDiff) {
    EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n", "k.cu"), "");
}

TEST(LineDiff, AnInsertedLineWithItsContext) {
    const std::string before = "1\n2\n3\n4\n5\n6\n";
    const std::string after = "1\n2\n3\n#pragma unroll 4\n4\n5\n6\n";
    EXPECT_EQ(unified_diff(before, after, "k.cu"),
              "--- a/k.cu\n+++ b/k.cu\n@@ -2,4 +2,5 @@\n 2\n 3\n+#pragma unroll 4\n 4\n 5\n");
}

TEST(LineDiff, AChangedLineAndFarApartChangesAreTwoHunks) {
    const std::string before = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
    const std::string after = "A\nb\nc\nd\ne\nf\ng\nh\ni\nJ\n";
    EXPECT_EQ(unified_diff(before, after, "k.cu", 1),
              "--- a/k.cu\n+++ b/k.cu\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n@@ -9,2 +9,2 @@\n i\n-j\n+J\n");
}

}  // namespace
}  // namespace optiml::report
