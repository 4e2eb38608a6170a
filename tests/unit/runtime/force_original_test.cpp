// OPTIML_FORCE_ORIGINAL=1 sends every device to the original kernel, even one with an exact
// CUBIN. Its own executable: the variable is read once per process, before any dispatch.
#include <gtest/gtest.h>

#include <cstdlib>

#include <optiml/runtime.h>

namespace optiml::rt {
namespace {

const unsigned char image_bytes[] = {0x7f, 'E', 'L', 'F'};
const Image images[] = {{90, false, image_bytes, sizeof(image_bytes), "_Z1kv", 0}};

TEST(ForceOriginal, EveryDeviceRunsTheOriginalKernel) {
    ASSERT_TRUE(force_original());
    set_arch_override(90);
    KernelTable table(images, 1);
    cudaKernel_t kernel = nullptr;
    Dispatch dispatch{};
    ASSERT_EQ(table.resolve(0, &kernel, &dispatch), cudaSuccess);
    set_arch_override(0);
    EXPECT_EQ(kernel, nullptr);
    EXPECT_EQ(dispatch.image, -1);
    EXPECT_STREQ(dispatch.why, "OPTIML_FORCE_ORIGINAL=1; original kernel");
}

}  // namespace
}  // namespace optiml::rt

int main(int argc, char** argv) {
    ::setenv("OPTIML_FORCE_ORIGINAL", "1", 1);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
