// parse_spec/load_spec on valid specs: every field of the full example, the defaults of a
// minimal spec, and the environment expressions are evaluated in.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/spec/spec.h"
#include "tests/unit/spec/spec_test_support.h"

namespace optiml::spec {
namespace {

using testing::data_dir;
using testing::fixture_json;
using testing::fixture_path;

std::vector<std::string> texts(const std::array<expr::Expr, 3>& dimensions) {
    return {dimensions[0].text(), dimensions[1].text(), dimensions[2].text()};
}

TEST(LoadSpec, ReadsEveryFieldOfTheFullExample) {
    const Spec spec = load_spec(fixture_path());
    EXPECT_EQ(spec.file, fixture_path().lexically_normal());
    EXPECT_TRUE(spec.file.is_absolute());
    EXPECT_EQ(spec.name, "saxpy");
    EXPECT_EQ(spec.source, (data_dir() / "saxpy.cu").lexically_normal());
    EXPECT_EQ(spec.source_as_written, "saxpy.cu");
    EXPECT_EQ(spec.kernel, "saxpy");
    EXPECT_EQ(spec.include_dirs, std::vector<std::string>{"include"});

    ASSERT_EQ(spec.arguments.size(), 4u);
    const Argument& n = spec.arguments[0];
    EXPECT_EQ(n.name, "n");
    EXPECT_EQ(n.type, ElementType::Int32);
    EXPECT_FALSE(n.is_pointer);
    EXPECT_EQ(n.integer_value, 33554432);
    EXPECT_EQ(n.value, 33554432.0);
    const Argument& a = spec.arguments[1];
    EXPECT_EQ(a.type, ElementType::Float32);
    EXPECT_FALSE(a.is_pointer);
    EXPECT_EQ(a.value, 2.5);
    const Argument& x = spec.arguments[2];
    EXPECT_TRUE(x.is_pointer);
    EXPECT_EQ(x.count.text(), "n");
    EXPECT_EQ(x.role, Role::Input);
    EXPECT_EQ(x.fill.kind, Fill::Kind::Uniform);
    EXPECT_EQ(x.fill.a, -1.0);
    EXPECT_EQ(x.fill.b, 1.0);
    EXPECT_EQ(x.fill.seed, 1u);
    const Argument& y = spec.arguments[3];
    EXPECT_EQ(y.name, "y");
    EXPECT_EQ(y.role, Role::InOut);
    EXPECT_EQ(y.fill.kind, Fill::Kind::Normal);
    EXPECT_EQ(y.fill.a, 0.0);
    EXPECT_EQ(y.fill.b, 1.0);
    EXPECT_EQ(y.fill.seed, 2u);

    EXPECT_EQ(texts(spec.launch.block), (std::vector<std::string>{"block_size_x", "1", "1"}));
    EXPECT_EQ(texts(spec.launch.grid),
              (std::vector<std::string>{"ceil_div(n, block_size_x * items_per_thread)", "1", "1"}));
    EXPECT_EQ(spec.launch.shared_memory_bytes.text(), "0");

    ASSERT_EQ(spec.parameters.size(), 2u);
    EXPECT_EQ(spec.parameters[0].name, "block_size_x");
    EXPECT_EQ(spec.parameters[0].values, (std::vector<std::int64_t>{64, 128, 256, 512, 1024}));
    EXPECT_EQ(spec.parameters[0].default_value, 256);
    EXPECT_EQ(spec.parameters[1].name, "items_per_thread");
    EXPECT_EQ(spec.parameters[1].values, (std::vector<std::int64_t>{1, 2, 4, 8}));
    EXPECT_EQ(spec.parameters[1].default_value, 1);

    ASSERT_EQ(spec.constraints.size(), 1u);
    EXPECT_EQ(spec.constraints[0].text(), "block_size_x * items_per_thread <= 8192");
    ASSERT_EQ(spec.constants.size(), 1u);
    EXPECT_EQ(spec.constants[0].name, "coefficients");
    EXPECT_EQ(spec.constants[0].type, ElementType::Float32);
    EXPECT_EQ(spec.constants[0].count.text(), "16");
    EXPECT_EQ(spec.constants[0].fill.kind, Fill::Kind::Iota);
    EXPECT_EQ(spec.constants[0].fill.a, 0.0);
    EXPECT_EQ(spec.constants[0].fill.b, 1.0);

    EXPECT_EQ(spec.nvrtc_options, std::vector<std::string>{"-std=c++17"});
    EXPECT_EQ(spec.check.rtol, 1e-5);
    EXPECT_EQ(spec.check.atol, 1e-6);
    EXPECT_EQ(spec.budget.evaluations, 200);
    EXPECT_EQ(spec.budget.seconds, 600.0);
}

TEST(LoadSpec, EnvironmentHoldsIntegerScalarsAndTheConfiguration) {
    const Spec spec = load_spec(fixture_path());
    const std::map<std::string, std::int64_t> defaults = spec.default_config();
    EXPECT_EQ(defaults, (std::map<std::string, std::int64_t>{{"block_size_x", 256},
                                                             {"items_per_thread", 1}}));
    EXPECT_EQ(spec.environment(defaults),
              (expr::Env{{"block_size_x", 256}, {"items_per_thread", 1}, {"n", 33554432}}));
    const expr::Env tuned = spec.environment({{"block_size_x", 1024}, {"items_per_thread", 8}});
    EXPECT_EQ(spec.launch.grid[0].eval(tuned), 33554432 / 8192);
    EXPECT_EQ(spec.launch.block[0].eval(tuned), 1024);
    EXPECT_EQ(spec.arguments[2].count.eval(tuned), 33554432);
    EXPECT_EQ(spec.constraints[0].eval(
                  spec.environment({{"block_size_x", 1024}, {"items_per_thread", 16}})),
              0);
}

TEST(ParseSpec, FillsInTheDefaultsOfAMinimalSpec) {
    const nlohmann::json minimal = {
        {"name", "scale"},
        {"source", "saxpy.cu"},
        {"arguments",
         {{{"name", "n"}, {"type", "int64"}, {"value", 10}},
          {{"name", "in"}, {"type", "float64"}, {"pointer", true}, {"count", "n"}},
          {{"name", "out"},
           {"type", "float64"},
           {"pointer", true},
           {"count", 10},
           {"role", "output"}}}},
        {"launch", {{"block", {32}}, {"grid", {"ceil_div(n, 32)"}}}},
        {"constants", {{{"name", "table"}, {"type", "int32"}, {"count", 4}}}},
    };
    const Spec spec = parse_spec(minimal, fixture_path());
    EXPECT_EQ(spec.kernel, "scale");
    EXPECT_TRUE(spec.include_dirs.empty());
    EXPECT_EQ(spec.arguments[1].role, Role::Input);
    EXPECT_EQ(spec.arguments[1].fill.kind, Fill::Kind::Uniform);
    EXPECT_EQ(spec.arguments[1].fill.a, 0.0);
    EXPECT_EQ(spec.arguments[1].fill.b, 1.0);
    EXPECT_EQ(spec.arguments[1].fill.seed, 2u);  // its 1-based position: inputs differ by default
    EXPECT_EQ(spec.arguments[2].role, Role::Output);
    EXPECT_EQ(spec.constants[0].fill.seed, 1001u);
    EXPECT_EQ(texts(spec.launch.block), (std::vector<std::string>{"32", "1", "1"}));
    EXPECT_EQ(texts(spec.launch.grid), (std::vector<std::string>{"ceil_div(n, 32)", "1", "1"}));
    EXPECT_EQ(spec.launch.shared_memory_bytes.eval({}), 0);
    EXPECT_TRUE(spec.parameters.empty());
    EXPECT_TRUE(spec.default_config().empty());
    EXPECT_TRUE(spec.constraints.empty());
    EXPECT_TRUE(spec.nvrtc_options.empty());
    EXPECT_EQ(spec.check.rtol, 1e-5);
    EXPECT_EQ(spec.check.atol, 1e-6);
    EXPECT_EQ(spec.budget.evaluations, std::nullopt);  // fitted to the space when tuned
    EXPECT_EQ(spec.budget.seconds, 600.0);
    EXPECT_EQ(spec.normalized["budget"]["evaluations"], "auto");
}

TEST(ParseSpec, EvaluationsAutoIsTheDefaultAndANumberIsKept) {
    nlohmann::json json = fixture_json();
    json["budget"]["evaluations"] = "auto";
    const Spec fitted = parse_spec(json, fixture_path());
    EXPECT_EQ(fitted.budget.evaluations, std::nullopt);
    json.erase("budget");
    // "auto" and no budget at all are the same spec: the same key.
    EXPECT_EQ(parse_spec(json, fixture_path()).normalized, fitted.normalized);
    json["budget"] = {{"evaluations", 64}};
    EXPECT_EQ(parse_spec(json, fixture_path()).budget.evaluations, 64);
}

TEST(ParseSpec, KeepsTemplateNameExpressionsAndExactInt64Scalars) {
    nlohmann::json json = fixture_json();
    json["kernel"] = "saxpy<float, 4>";
    json["arguments"][0]["type"] = "int64";
    json["arguments"][0]["value"] = 9007199254740993;  // 2^53 + 1: not representable as double
    json["launch"]["grid"][0] = "ceil_div(n, block_size_x * items_per_thread * 1024)";
    const Spec spec = parse_spec(json, fixture_path());
    EXPECT_EQ(spec.kernel, "saxpy<float, 4>");
    EXPECT_EQ(spec.arguments[0].integer_value, 9007199254740993);
    EXPECT_EQ(spec.environment({}).at("n"), 9007199254740993);
    EXPECT_EQ(spec.normalized["arguments"][0]["value"], 9007199254740993);
}

TEST(ParseSpec, AcceptsIntegerFillsForIntegerTypes) {
    nlohmann::json json = fixture_json();
    json["arguments"][2]["type"] = "uint8";
    json["arguments"][2]["fill"] = {{"kind", "uniform"}, {"min", 0}, {"max", 255}};
    json["arguments"][3]["type"] = "int16";
    json["arguments"][3]["fill"] = {{"kind", "iota"}, {"start", -5}, {"step", 3}};
    const Spec spec = parse_spec(json, fixture_path());
    EXPECT_EQ(spec.arguments[2].fill.b, 255.0);
    EXPECT_EQ(spec.arguments[2].fill.seed, 3u);
    EXPECT_EQ(spec.arguments[3].fill.a, -5.0);
    EXPECT_EQ(spec.arguments[3].fill.b, 3.0);
}

}  // namespace
}  // namespace optiml::spec
