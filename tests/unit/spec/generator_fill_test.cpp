// "generator" fills: entries filled by a project's C++ generator. The spec names the source (which
// must exist); every entry naming one source is filled by one call (Spec::generators); the
// normalized spec (the cache key's) holds the source's path as written.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "driver/spec/spec.h"
#include "tests/unit/spec/spec_test_support.h"

namespace optiml::spec {
namespace {

using testing::fixture_json;
using testing::ScratchSpec;

const nlohmann::json kGenerated = {{"kind", "generator"}, {"source", "gen/make_xy.cpp"}};

// The fixture with x, y and the constant filled as `fills` says, and gen/make_xy.cpp beside it.
struct GeneratorSpec {
    GeneratorSpec(const nlohmann::json& x, const nlohmann::json& y, const nlohmann::json& constant)
        : scratch(text(x, y, constant)) {
        std::filesystem::create_directories(scratch.directory() / "gen");
        std::ofstream(scratch.directory() / "gen/make_xy.cpp") << "// a generator\n";
        std::ofstream(scratch.directory() / "gen/other.cpp") << "// another\n";
    }
    static std::string text(const nlohmann::json& x, const nlohmann::json& y,
                            const nlohmann::json& constant) {
        nlohmann::json json = fixture_json();
        json["arguments"][2]["fill"] = x;
        json["arguments"][3]["fill"] = y;
        json["constants"][0]["fill"] = constant;
        return json.dump();
    }
    std::string error() const { return testing::load_error(scratch.path()); }
    ScratchSpec scratch;
};

TEST(GeneratorFill, EntriesOfOneSourceShareOneGeneratorInTheSpecsOrder) {
    const nlohmann::json other = {{"kind", "generator"}, {"source", "gen/other.cpp"}};
    const GeneratorSpec file(kGenerated, other, kGenerated);
    const Spec spec = load_spec(file.scratch.path());
    EXPECT_EQ(spec.arguments[2].fill.kind, Fill::Kind::Generator);
    EXPECT_EQ(spec.arguments[2].fill.generator.path, file.scratch.directory() / "gen/make_xy.cpp");
    ASSERT_EQ(spec.generators.size(), 2u);
    EXPECT_EQ(spec.generators[0].source.as_written, "gen/make_xy.cpp");
    EXPECT_EQ(spec.generators[0].fills, (std::vector<std::string>{"x", "coefficients"}));
    EXPECT_EQ(spec.generators[1].source.as_written, "gen/other.cpp");
    EXPECT_EQ(spec.generators[1].fills, (std::vector<std::string>{"y"}));
    EXPECT_EQ(spec.normalized["arguments"][2]["fill"], kGenerated);
    EXPECT_EQ(spec.normalized["constants"][0]["fill"], kGenerated);
}

TEST(GeneratorFill, ASpecWithoutGeneratorsHasNone) {
    EXPECT_TRUE(load_spec(testing::fixture_path()).generators.empty());
}

TEST(GeneratorFill, AnotherSourceIsAnotherNormalizedSpec) {
    const nlohmann::json other = {{"kind", "generator"}, {"source", "gen/other.cpp"}};
    const GeneratorSpec one(kGenerated, kGenerated, kGenerated);
    const GeneratorSpec two(kGenerated, other, kGenerated);
    EXPECT_NE(load_spec(one.scratch.path()).normalized, load_spec(two.scratch.path()).normalized);
}

TEST(GeneratorFill, AMissingSourceNamesTheFieldAndWhereItLooked) {
    const nlohmann::json missing = {{"kind", "generator"}, {"source", "gen/nope.cpp"}};
    const GeneratorSpec file(missing, kGenerated, kGenerated);
    EXPECT_EQ(file.error(), "arguments[2].fill.source: \"gen/nope.cpp\" not found (looked for " +
                                (file.scratch.directory() / "gen/nope.cpp").string() +
                                "); expected an existing file, a path relative to the spec file")
        << file.error();
}

TEST(GeneratorFill, ASeedIsNotAFieldTheGeneratorGetsEachTrialsOwn) {
    nlohmann::json seeded = kGenerated;
    seeded["seed"] = 3;
    const GeneratorSpec file(seeded, kGenerated, kGenerated);
    EXPECT_EQ(file.error(),
              "arguments[2].fill.seed: unknown field 'seed'; expected one of kind, source");
}

TEST(GeneratorFill, AnOutputHasNoGenerator) {
    nlohmann::json json = fixture_json();
    json["arguments"][3]["role"] = "output";
    json["arguments"][3]["fill"] = kGenerated;
    ScratchSpec scratch(json.dump());
    try {
        (void)load_spec(scratch.path());
        ADD_FAILURE() << "loaded";
    } catch (const SpecError& e) {
        EXPECT_NE(std::string(e.what()).find("arguments[3].fill: an output argument has no fill"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace optiml::spec
