// current_device(): the device a generated launcher dispatches for. It must agree with
// cudaGetDevice, error included, whether or not a GPU is present.
#include <gtest/gtest.h>

#include <thread>

#include <optiml/runtime.h>

namespace optiml::rt {
namespace {

TEST(CurrentDevice, AgreesWithCudaGetDeviceOnEveryCall) {
    for (int call = 0; call < 3; ++call) {  // the first call counts; later ones may skip
        int expected = -7;
        const cudaError_t expected_status = cudaGetDevice(&expected);
        int device = -7;
        const cudaError_t status = current_device(&device);
        ASSERT_EQ(status, expected_status) << "call " << call;
        if (status == cudaSuccess) {
            EXPECT_EQ(device, expected) << "call " << call;
        }
    }
}

TEST(CurrentDevice, WithoutADeviceReportsTheErrorAndNeverCountsOne) {
    int count = 0;
    if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) GTEST_SKIP() << "a GPU is present";
    int device = -7;
    EXPECT_NE(current_device(&device), cudaSuccess);
    EXPECT_EQ(detail::visible_devices.load(), 0);
}

TEST(CurrentDevice, AThreadThatSetsAnotherDeviceGetsThatDevice) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) GTEST_SKIP() << "needs two GPUs";
    std::thread other([] {
        ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
        int device = -7;
        ASSERT_EQ(current_device(&device), cudaSuccess);
        EXPECT_EQ(device, 1);
    });
    other.join();
    int device = -7;
    ASSERT_EQ(current_device(&device), cudaSuccess);
    EXPECT_EQ(device, 0);
}

}  // namespace
}  // namespace optiml::rt
