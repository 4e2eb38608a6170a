// How many copies of the arguments timed runs rotate through ("cold_cache": "rotate").
#include "driver/measure/detail/rotation_plan.h"

#include <gtest/gtest.h>

namespace optiml::measure {
namespace {

constexpr std::size_t kMiB = 1024 * 1024;
constexpr std::size_t kL2 = 60 * kMiB;
constexpr std::size_t kPlenty = 100000 * kMiB;

TEST(RotationPlan, EveryBufferOfACopyStartsAligned) {
    EXPECT_EQ(rotation_copy_bytes({4, 0, 256, 257}), 256u + 0u + 256u + 512u);
    EXPECT_EQ(rotation_copy_bytes({}), 0u);
}

TEST(RotationPlan, TheCopiesARunDoesNotUseHoldTwiceTheL2) {
    for (const std::size_t copy : {std::size_t{4096}, 1 * kMiB, 7 * kMiB, 40 * kMiB, 119 * kMiB}) {
        const int copies = rotation_copies(copy, kL2, kPlenty);
        ASSERT_GE(copies, 2) << copy;
        EXPECT_GE(static_cast<std::size_t>(copies - 1) * copy, 2 * kL2) << copy;
        // ... and not many more than that takes.
        EXPECT_LT(static_cast<std::size_t>(copies - 2) * copy, 2 * kL2) << copy;
    }
}

TEST(RotationPlan, AProblemLargerThanTwiceTheL2AlternatesBetweenTwoCopies) {
    EXPECT_EQ(rotation_copies(120 * kMiB, kL2, kPlenty), 2);
    EXPECT_EQ(rotation_copies(4096 * kMiB, kL2, kPlenty), 2);
}

TEST(RotationPlan, CopiesThatTakeOverHalfOfTheFreeMemoryAreNotMade) {
    // Two copies of 4 GiB: 8 GiB, fine with 16 GiB free, too much with 15.
    EXPECT_EQ(rotation_copies(4096 * kMiB, kL2, 16384 * kMiB), 2);
    EXPECT_EQ(rotation_copies(4096 * kMiB, kL2, 15000 * kMiB), 0);
    EXPECT_EQ(rotation_copies(0, kL2, kPlenty), 0);
}

}  // namespace
}  // namespace optiml::measure
