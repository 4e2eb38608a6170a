// KernelTable without a GPU: dispatch with an injected architecture, fallback when an image
// cannot load, and errors (never crashes) when no device can be queried.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include <optiml/runtime.h>

namespace optiml::rt {
namespace {

// Bytes no driver accepts as a CUBIN or PTX: loading must fail, and the table must survive it.
const unsigned char not_a_cubin[] = {0x7f, 'E', 'L', 'F', 0x00, 0x01};
const char not_ptx[] = ".version 99.9\n.target sm_90\nthis is not ptx\n";

const Image sm90_images[] = {
    {90, false, not_a_cubin, sizeof(not_a_cubin), "_Z1kv", 0},
    {90, true, not_ptx, sizeof(not_ptx), "_Z1kv", 0},
};

bool has_gpu() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

class KernelTableTest : public ::testing::Test {
  protected:
    void TearDown() override { set_arch_override(0); }
};

TEST_F(KernelTableTest, WithoutADeviceResolveReturnsTheQueryError) {
    if (has_gpu()) GTEST_SKIP() << "a GPU is present";
    KernelTable table(sm90_images, 2);
    cudaKernel_t kernel = reinterpret_cast<cudaKernel_t>(&table);  // must be overwritten
    Dispatch dispatch{7, 7, nullptr};
    const cudaError_t status = table.resolve(0, &kernel, &dispatch);
    EXPECT_NE(status, cudaSuccess);
    EXPECT_EQ(kernel, nullptr);
    EXPECT_EQ(dispatch.image, -1);
    ASSERT_NE(dispatch.why, nullptr);
    EXPECT_STREQ(dispatch.why, cudaGetErrorName(status));
}

TEST_F(KernelTableTest, InjectedOlderArchitectureRunsTheOriginalWithoutTouchingCuda) {
    set_arch_override(80);
    KernelTable table(sm90_images, 2);
    cudaKernel_t kernel = nullptr;
    cudaLibrary_t library = reinterpret_cast<cudaLibrary_t>(&table);
    Dispatch dispatch{};
    ASSERT_EQ(table.resolve(0, &kernel, &dispatch, &library), cudaSuccess);
    EXPECT_EQ(kernel, nullptr);
    EXPECT_EQ(library, nullptr);
    EXPECT_EQ(dispatch.image, -1);
    EXPECT_EQ(dispatch.variant, -1);
    EXPECT_STREQ(dispatch.why, "no tuned image runs on this architecture; original kernel");
}

TEST_F(KernelTableTest, ImageThatFailsToLoadFallsBackToTheOriginalAndNamesTheError) {
    set_arch_override(90);
    KernelTable table(sm90_images, 2);
    cudaKernel_t kernel = nullptr;
    Dispatch dispatch{};
    ASSERT_EQ(table.resolve(0, &kernel, &dispatch), cudaSuccess);
    EXPECT_EQ(kernel, nullptr);
    EXPECT_EQ(dispatch.image, -1);
    EXPECT_EQ(dispatch.variant, -1);
    const std::string why = dispatch.why;
    EXPECT_TRUE(why.starts_with("loading the tuned CUBIN (sm_90) failed with cudaError")) << why;
    EXPECT_TRUE(why.ends_with("; original kernel")) << why;
    // The handled failure does not leak into the user's next error check (without a driver,
    // cudart's failed initialization is reported by every call, so only a GPU can show this).
    if (has_gpu()) {
        EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    }
}

TEST_F(KernelTableTest, InjectedNewerArchitectureChoosesThePtxAndFallsBackWhenItCannotLoad) {
    set_arch_override(100);
    KernelTable table(sm90_images, 2);
    cudaKernel_t kernel = nullptr;
    Dispatch dispatch{};
    ASSERT_EQ(table.resolve(0, &kernel, &dispatch), cudaSuccess);
    EXPECT_EQ(dispatch.image, -1);
    EXPECT_TRUE(std::string(dispatch.why).starts_with("loading the tuned PTX (compute_90) failed"))
        << dispatch.why;
}

TEST_F(KernelTableTest, ADeviceIsResolvedOnceAndLaterCallsReturnTheSameChoice) {
    set_arch_override(80);
    KernelTable table(sm90_images, 2);
    cudaKernel_t kernel = nullptr;
    Dispatch first{};
    ASSERT_EQ(table.resolve(3, &kernel, &first), cudaSuccess);
    // The override changes, but device 3 keeps its choice; device 4 is resolved anew.
    set_arch_override(90);
    Dispatch again{};
    ASSERT_EQ(table.resolve(3, &kernel, &again), cudaSuccess);
    EXPECT_EQ(again.why, first.why);
    Dispatch other{};
    ASSERT_EQ(table.resolve(4, &kernel, &other), cudaSuccess);
    EXPECT_NE(std::string(other.why), std::string(first.why));
}

TEST_F(KernelTableTest, ConcurrentFirstCallsAgree) {
    set_arch_override(90);
    KernelTable table(sm90_images, 2);
    std::vector<Dispatch> seen(8);
    std::vector<cudaError_t> statuses(8, cudaErrorUnknown);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < seen.size(); ++i) {
        threads.emplace_back([&, i] {
            cudaKernel_t kernel = nullptr;
            statuses[i] = table.resolve(static_cast<int>(i % 2), &kernel, &seen[i]);
        });
    }
    for (std::thread& thread : threads) thread.join();
    for (std::size_t i = 0; i < seen.size(); ++i) {
        EXPECT_EQ(statuses[i], cudaSuccess);
        EXPECT_STREQ(seen[i].why, seen[0].why);
    }
}

TEST_F(KernelTableTest, BadDeviceIndices) {
    set_arch_override(90);
    KernelTable table(sm90_images, 2);
    cudaKernel_t kernel = nullptr;
    Dispatch dispatch{};
    EXPECT_EQ(table.resolve(-1, &kernel, &dispatch), cudaErrorInvalidDevice);
    // Beyond the table's slots a device still works, with the original kernel.
    EXPECT_EQ(table.resolve(KernelTable::max_devices, &kernel, &dispatch), cudaSuccess);
    EXPECT_EQ(kernel, nullptr);
    EXPECT_EQ(dispatch.image, -1);
}

TEST_F(KernelTableTest, EmptyTableAlwaysRunsTheOriginal) {
    set_arch_override(90);
    KernelTable table(nullptr, 0);
    cudaKernel_t kernel = nullptr;
    Dispatch dispatch{};
    ASSERT_EQ(table.resolve(0, &kernel, &dispatch), cudaSuccess);
    EXPECT_EQ(kernel, nullptr);
    EXPECT_EQ(dispatch.image, -1);
}

TEST_F(KernelTableTest, SharedMemoryUpToTheDefaultNeedsNoOptIn) {
    KernelTable table(nullptr, 0);
    // No CUDA call happens at or below 48 KiB, so this succeeds without a device or kernel.
    EXPECT_EQ(table.allow_dynamic_shared_memory(0, nullptr, nullptr, 48 * 1024), cudaSuccess);
    EXPECT_EQ(table.allow_dynamic_shared_memory(0, nullptr, nullptr, 0), cudaSuccess);
    if (!has_gpu()) {
        EXPECT_NE(table.allow_dynamic_shared_memory(0, nullptr, nullptr, 64 * 1024), cudaSuccess);
    }
}

}  // namespace
}  // namespace optiml::rt
