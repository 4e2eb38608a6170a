// The shared number formats (driver/base/format.h) that logs, explanations and prompts print.
#include "driver/base/format.h"

#include <gtest/gtest.h>

namespace optiml::base::format {
namespace {

TEST(FormatTest, PreciseKeepsFourSignificantDigits) {
    EXPECT_EQ(precise(1.0 / 6.0), "0.1667");
    EXPECT_EQ(precise(12345.0), "1.234e+04");
    EXPECT_EQ(precise(2.0), "2");
    EXPECT_EQ(number(1.0 / 6.0), "0.167");  // the reports' three digits stay as they were
}

TEST(FormatTest, MillisecondsIsPreciseWithItsUnit) {
    EXPECT_EQ(milliseconds(0.123456), "0.1235 ms");
    EXPECT_EQ(milliseconds(1500.0), "1500 ms");
    EXPECT_EQ(milliseconds(0.0), "0 ms");
}

}  // namespace
}  // namespace optiml::base::format
