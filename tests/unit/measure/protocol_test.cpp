#include "driver/measure/protocol.h"

#include <gtest/gtest.h>

namespace optiml::measure {
namespace {

TEST(Protocol, ProblemsSurviveAJsonRoundTrip) {
    Problem problem;
    problem.arguments.push_back(
        {"n", spec::ElementType::Int32, false, 1024, 0, {}, spec::Role::Input});
    problem.arguments.push_back({"y",
                                 spec::ElementType::Float64,
                                 true,
                                 0,
                                 1024,
                                 {spec::Fill::Kind::Normal, 1.0, 2.0, 99},
                                 spec::Role::InOut});
    problem.constants.push_back({"c",
                                 spec::ElementType::UInt16,
                                 true,
                                 0,
                                 16,
                                 {spec::Fill::Kind::Iota, 0, 1, 1},
                                 spec::Role::Input});
    problem.tolerance = {1e-3, 1e-4};
    const Problem back = nlohmann::json(problem).get<Problem>();
    ASSERT_EQ(back.arguments.size(), 2u);
    EXPECT_EQ(back.arguments[1].type, spec::ElementType::Float64);
    EXPECT_EQ(back.arguments[1].role, spec::Role::InOut);
    EXPECT_EQ(back.arguments[1].fill.kind, spec::Fill::Kind::Normal);
    EXPECT_EQ(back.arguments[1].fill.seed, 99u);
    EXPECT_EQ(back.constants[0].count, 16u);
    EXPECT_EQ(back.constants[0].type, spec::ElementType::UInt16);
    EXPECT_DOUBLE_EQ(back.tolerance.rtol, 1e-3);
}

TEST(Protocol, LaunchesAndMeasurementsSurviveAJsonRoundTrip) {
    LaunchSpec launch{"/tmp/x.cubin", "_Z1kv", {4, 2, 1}, {256, 1, 1}, 49152};
    const LaunchSpec back = nlohmann::json(launch).get<LaunchSpec>();
    EXPECT_EQ(back.grid, launch.grid);
    EXPECT_EQ(back.shared_memory_bytes, 49152u);
    Measurement m;
    m.status = "mismatch";
    m.message = "y[0] differs";
    m.fatal = true;
    const Measurement mb = nlohmann::json(m).get<Measurement>();
    EXPECT_FALSE(mb.ok);
    EXPECT_TRUE(mb.fatal);
    EXPECT_EQ(mb.message, "y[0] differs");
}

}  // namespace
}  // namespace optiml::measure
