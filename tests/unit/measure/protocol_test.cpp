#include "driver/measure/protocol.h"

#include <gtest/gtest.h>

#include <filesystem>

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
                                 {spec::Fill::Kind::Normal, 1.0, 2.0, 99, {}, {}},
                                 spec::Role::InOut});
    problem.constants.push_back({"c",
                                 spec::ElementType::UInt16,
                                 true,
                                 0,
                                 16,
                                 {spec::Fill::Kind::Iota, 0, 1, 1, {}, {}},
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

TEST(Protocol, AFileFillTravelsAsItsPath) {
    BufferSpec buffer{"x", spec::ElementType::Float32, true, 0, 8, {}, spec::Role::Input};
    buffer.fill.kind = spec::Fill::Kind::File;
    buffer.fill.file = {"/work/project/data/x.npy", "data/x.npy"};
    const BufferSpec back = nlohmann::json(buffer).get<BufferSpec>();
    EXPECT_EQ(back.fill.kind, spec::Fill::Kind::File);
    EXPECT_EQ(back.fill.file.path, buffer.fill.file.path);
    EXPECT_EQ(back.fill.file.as_written, "data/x.npy");
}

TEST(Protocol, GeneratorsTravelWithTheProblemAndTheirFillsAsTheSource) {
    Problem problem;
    problem.generators.push_back({"/tmp/build/generator0.so", "make_csr.cpp", {"a", "b"}});
    BufferSpec buffer{"a", spec::ElementType::Int32, true, 0, 8, {}, spec::Role::Input};
    buffer.fill.kind = spec::Fill::Kind::Generator;
    buffer.fill.generator = {"/work/project/make_csr.cpp", "make_csr.cpp"};
    problem.arguments.push_back(buffer);
    const Problem back = nlohmann::json(problem).get<Problem>();
    ASSERT_EQ(back.generators.size(), 1u);
    EXPECT_EQ(back.generators[0].library, "/tmp/build/generator0.so");
    EXPECT_EQ(back.generators[0].source, "make_csr.cpp");
    EXPECT_EQ(back.generators[0].fills, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(back.arguments[0].fill.kind, spec::Fill::Kind::Generator);
    EXPECT_EQ(back.arguments[0].fill.generator.as_written, "make_csr.cpp");
    // Without generators the problem's JSON is what it was before they existed.
    EXPECT_FALSE(nlohmann::json(Problem{}).contains("generators"));
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

TEST(Protocol, TheComparisonLibraryTravelsWithTheProblem) {
    Problem problem;
    problem.compare_library = "/tmp/build/compare.so";
    problem.compare_source = "compare_partials.cpp";
    const Problem back = nlohmann::json(problem).get<Problem>();
    EXPECT_EQ(back.compare_library, "/tmp/build/compare.so");
    EXPECT_EQ(back.compare_source, "compare_partials.cpp");
    // What an older driver sent: no comparison library, so the element-wise comparison.
    nlohmann::json older = nlohmann::json(problem);
    older.erase("compare_library");
    older.erase("compare_source");
    EXPECT_TRUE(older.get<Problem>().compare_library.empty());
}

TEST(Protocol, InputRotationTravelsWithTheTimingAndDefaultsToOff) {
    TimingSpec timing;
    EXPECT_FALSE(timing.rotate_inputs);
    timing.rotate_inputs = true;
    timing.flush_l2 = false;
    const TimingSpec back = nlohmann::json(timing).get<TimingSpec>();
    EXPECT_TRUE(back.rotate_inputs);
    EXPECT_FALSE(back.flush_l2);
    nlohmann::json older = nlohmann::json(TimingSpec{});
    older.erase("rotate_inputs");
    EXPECT_FALSE(older.get<TimingSpec>().rotate_inputs);
    EXPECT_TRUE(older.get<TimingSpec>().flush_l2);
}

TEST(Protocol, MeasurementsSayHowTheCacheWasMadeCold) {
    Measurement m;
    m.ok = true;
    m.cold_cache = "rotate";
    m.input_copies = 7;
    const Measurement back = nlohmann::json(m).get<Measurement>();
    EXPECT_EQ(back.cold_cache, "rotate");
    EXPECT_EQ(back.input_copies, 7);
    const Measurement older = nlohmann::json{{"ok", true}}.get<Measurement>();
    EXPECT_EQ(older.cold_cache, "");
    EXPECT_EQ(older.input_copies, 0);
}

TEST(Protocol, AnEvaluateRequestCarriesVerifiedOnlyWhenVerificationIsToBeSkipped) {
    EvaluateRequest request;
    request.launch = {"/tmp/c.cubin", "_Z1kv", {8, 1, 1}, {128, 1, 1}, 0};
    request.incumbent = LaunchSpec{"/tmp/i.cubin", "_Z1iv", {4, 1, 1}, {256, 1, 1}, 0};
    request.verified = true;
    const nlohmann::json sent = request;
    EXPECT_EQ(sent.at("op"), "evaluate");
    EXPECT_EQ(sent.at("verified"), true);
    const EvaluateRequest back = sent.get<EvaluateRequest>();
    EXPECT_TRUE(back.verified);
    EXPECT_EQ(back.launch.symbol, "_Z1kv");
    ASSERT_TRUE(back.incumbent);
    EXPECT_EQ(back.incumbent->block[0], 256u);

    // One GPU: the request is what it was before the flag existed, and the worker verifies.
    const nlohmann::json plain = EvaluateRequest{request.launch, {}, std::nullopt, false};
    EXPECT_FALSE(plain.contains("verified"));
    EXPECT_FALSE(plain.contains("incumbent"));
    const EvaluateRequest plain_back = plain.get<EvaluateRequest>();
    EXPECT_FALSE(plain_back.verified);
    EXPECT_FALSE(plain_back.incumbent);
}

TEST(Protocol, TheSpecsColdCacheMethodBecomesTheTiming) {
    spec::Spec spec =
        spec::load_spec(std::filesystem::path(OPTIML_TEST_DATA) / "scale.optiml.json");
    EXPECT_TRUE(make_timing(spec).flush_l2);
    EXPECT_FALSE(make_timing(spec).rotate_inputs);
    spec.timing.cold_cache = spec::ColdCache::Rotate;
    EXPECT_FALSE(make_timing(spec).flush_l2);
    EXPECT_TRUE(make_timing(spec).rotate_inputs);
}

TEST(Protocol, AnExtraSizeSetsItsScalarsAndTheCountsThatDependOnThem) {
    const spec::Spec spec =
        spec::load_spec(std::filesystem::path(OPTIML_TEST_DATA) / "scale.optiml.json");
    const spec::ProblemSize size{{{"n", 1000003}}};
    const Problem main = make_problem(spec);
    const Problem there = make_problem(spec, &size);
    ASSERT_EQ(there.arguments.size(), 3u);
    EXPECT_DOUBLE_EQ(main.arguments[0].value, 4096);
    EXPECT_DOUBLE_EQ(there.arguments[0].value, 1000003);
    EXPECT_EQ(main.arguments[1].count, 4096u);
    EXPECT_EQ(there.arguments[1].count, 1000003u);
    EXPECT_EQ(there.arguments[2].count, 1000003u);
    EXPECT_EQ(there.arguments[1].fill.seed, main.arguments[1].fill.seed);
}

}  // namespace
}  // namespace optiml::measure
