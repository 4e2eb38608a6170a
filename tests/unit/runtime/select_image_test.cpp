// The dispatch rule, checked without a GPU: which image a device of each architecture runs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <optiml/runtime.h>

namespace optiml::rt {
namespace {

Image cubin(int arch, int variant) {
    return Image{arch, false, nullptr, 0, "k", variant};
}
Image ptx(int arch, int variant) {
    return Image{arch, true, nullptr, 0, "k", variant};
}

struct Case {
    const char* label;
    std::vector<Image> images;
    int device_arch;
    int expected_image;
    const char* why_contains;
};

TEST(SelectImage, FollowsExactCubinThenSameMajorCubinThenPtxThenOriginal) {
    const std::vector<Case> cases = {
        {"exact cubin", {cubin(80, 0), cubin(90, 1), ptx(90, 1)}, 90, 1, "exactly this"},
        {"exact cubin wins over exact ptx",
         {ptx(90, 0), cubin(90, 0)},
         90,
         1,
         "CUBIN tuned for exactly"},
        {"same-major lower cubin", {cubin(80, 0), ptx(80, 0)}, 86, 0, "same major version"},
        {"highest same-major cubin not above",
         {cubin(80, 0), cubin(86, 1), cubin(89, 2)},
         87,
         1,
         "same major version"},
        {"same-major cubin wins over newer-arch ptx",
         {cubin(80, 0), ptx(86, 1)},
         86,
         0,
         "same major version"},
        {"no cubin of a higher minor", {cubin(86, 0)}, 80, -1, "original kernel"},
        {"ptx of an older major", {cubin(80, 0), ptx(80, 0)}, 90, 1, "older architecture, JIT"},
        {"highest ptx not above", {ptx(70, 0), ptx(80, 1), ptx(120, 2)}, 100, 1, "JIT"},
        {"ptx of the same arch", {ptx(90, 0)}, 90, 0, "PTX tuned for this architecture"},
        {"older device than every image",
         {cubin(90, 0), ptx(90, 0)},
         80,
         -1,
         "no tuned image runs on this architecture; original kernel"},
        {"cubin of another major never runs", {cubin(90, 0)}, 100, -1, "original kernel"},
        {"no images", {}, 90, -1, "original kernel"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.label);
        const char* why = nullptr;
        EXPECT_EQ(select_image(c.images.data(), c.images.size(), c.device_arch, &why),
                  c.expected_image);
        ASSERT_NE(why, nullptr);
        EXPECT_NE(std::string(why).find(c.why_contains), std::string::npos) << why;
    }
}

TEST(SelectImage, WhyIsOptionalAndNullImagesMeanNone) {
    const std::vector<Image> images = {cubin(90, 0)};
    EXPECT_EQ(select_image(images.data(), images.size(), 90, nullptr), 0);
    EXPECT_EQ(select_image(nullptr, 5, 90, nullptr), -1);
}

TEST(GeometryHelpers, ZeroDivisorsYieldZeroInsteadOfTrapping) {
    EXPECT_EQ(ceil_div(10, 4), 3);
    EXPECT_EQ(ceil_div(8, 4), 2);
    EXPECT_EQ(ceil_div(10, 0), 0);
    EXPECT_EQ(div(9, 2), 4);
    EXPECT_EQ(div(10, 0), 0);
    EXPECT_EQ(mod(9, 2), 1);
    EXPECT_EQ(mod(10, 0), 0);
    EXPECT_EQ(min(3, -2), -2);
    EXPECT_EQ(max(3, -2), 3);
}

TEST(LaunchConfiguration, RejectsDimensionsBelowOneOrBeyondDim3) {
    dim3 grid;
    dim3 block;
    std::size_t shared = 7;
    EXPECT_EQ(launch_configuration({{256, 1, 1}, {40, 2, 1}, 4096}, &grid, &block, &shared),
              cudaSuccess);
    EXPECT_EQ(block.x, 256u);
    EXPECT_EQ(grid.y, 2u);
    EXPECT_EQ(shared, 4096u);
    EXPECT_EQ(launch_configuration({{256, 1, 1}, {0, 1, 1}, 0}, &grid, &block, &shared),
              cudaErrorInvalidConfiguration);
    EXPECT_EQ(launch_configuration({{256, 1, -1}, {1, 1, 1}, 0}, &grid, &block, &shared),
              cudaErrorInvalidConfiguration);
    EXPECT_EQ(launch_configuration({{1, 1, 1}, {1LL << 32, 1, 1}, 0}, &grid, &block, &shared),
              cudaErrorInvalidConfiguration);
    EXPECT_EQ(launch_configuration({{1, 1, 1}, {1, 1, 1}, -1}, &grid, &block, &shared),
              cudaErrorInvalidConfiguration);
}

}  // namespace
}  // namespace optiml::rt
