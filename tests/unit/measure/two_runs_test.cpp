#include "driver/measure/detail/two_runs.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace optiml::measure {
namespace {
using spec::ElementType;

template <typename T>
std::vector<T> poisoned(std::size_t n, unsigned char poison) {
    std::vector<T> v(n);
    std::memset(v.data(), poison, n * sizeof(T));
    return v;
}

TEST(TwoRuns, IdenticalRunsPass) {
    std::vector<std::int32_t> a{1, 2, 3}, b{1, 2, 3};
    EXPECT_EQ(classify_two_runs(ElementType::Int32, a.data(), b.data(), 3, true, {}).kind,
              TwoRunVerdict::Kind::Same);
}

TEST(TwoRuns, ElementsHoldingEachRunsPoisonWereNeverWritten) {
    // An integer kernel that skips odd elements: no single poison value could reveal it (0xFF..
    // is -1, a legitimate result), but the two poisons differ.
    auto a = poisoned<std::int32_t>(6, kPoisonA);
    auto b = poisoned<std::int32_t>(6, kPoisonB);
    for (int i = 0; i < 6; i += 2) a[i] = b[i] = i;
    const TwoRunVerdict v = classify_two_runs(ElementType::Int32, a.data(), b.data(), 6, true, {});
    EXPECT_EQ(v.kind, TwoRunVerdict::Kind::Unwritten);
    EXPECT_EQ(v.count, 3u);
    EXPECT_EQ(v.first_index, 1u);
    EXPECT_NE(describe("y", v, 6).find("3 of 6 elements were never written"), std::string::npos);
}

TEST(TwoRuns, AWrittenValueThatEqualsAPoisonIsNotUnwritten) {
    auto a = std::vector<std::int32_t>{-1, 0};  // the kernel really wrote -1 and 0
    auto b = std::vector<std::int32_t>{-1, 0};
    EXPECT_EQ(classify_two_runs(ElementType::Int32, a.data(), b.data(), 2, true, {}).kind,
              TwoRunVerdict::Kind::Same);
}

TEST(TwoRuns, OtherDifferencesAreARace) {
    std::vector<std::int32_t> a{1, 7, 3}, b{1, 8, 3};
    const TwoRunVerdict v = classify_two_runs(ElementType::Int32, a.data(), b.data(), 3, true, {});
    EXPECT_EQ(v.kind, TwoRunVerdict::Kind::Nondeterministic);
    EXPECT_EQ(v.first_index, 1u);
}

TEST(TwoRuns, OrderDependentFloatsPassWithinToleranceWhenTheSpecAllowsIt) {
    std::vector<float> a{1.0f, 2.0f}, b{1.0f, 2.0000002f};
    EXPECT_EQ(
        classify_two_runs(ElementType::Float32, a.data(), b.data(), 2, true, {1e-5, 1e-6}).kind,
        TwoRunVerdict::Kind::Nondeterministic);
    EXPECT_EQ(
        classify_two_runs(ElementType::Float32, a.data(), b.data(), 2, false, {1e-5, 1e-6}).kind,
        TwoRunVerdict::Kind::Same);
    std::vector<float> c{1.0f, 2.5f};
    EXPECT_EQ(
        classify_two_runs(ElementType::Float32, a.data(), c.data(), 2, false, {1e-5, 1e-6}).kind,
        TwoRunVerdict::Kind::Nondeterministic);
}

TEST(TwoRuns, UnwrittenFloatsAreCaughtEvenWhenOrderMayVary) {
    auto a = poisoned<float>(2, kPoisonA);  // NaN
    auto b = poisoned<float>(2, kPoisonB);  // 0.0
    a[0] = b[0] = 3.0f;
    EXPECT_EQ(
        classify_two_runs(ElementType::Float32, a.data(), b.data(), 2, false, {1.0, 1.0}).kind,
        TwoRunVerdict::Kind::Unwritten);
}

}  // namespace
}  // namespace optiml::measure
