// The normalized spec (what the cache key hashes): equal for specs that differ only in form,
// different for specs that differ in meaning, and free of absolute paths.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "driver/spec/spec.h"
#include "tests/unit/spec/spec_test_support.h"

namespace optiml::spec {
namespace {

using testing::data_dir;
using testing::fixture_json;
using testing::fixture_path;
using testing::ScratchSpec;

nlohmann::json normalized(const nlohmann::json& spec) {
    return parse_spec(spec, fixture_path()).normalized;
}

TEST(Normalize, IgnoresWhitespaceCommentsAndKeyOrder) {
    const nlohmann::json reference = load_spec(fixture_path()).normalized;
    const ScratchSpec compact(fixture_json().dump());
    EXPECT_EQ(load_spec(compact.path()).normalized, reference);
    const ScratchSpec indented(fixture_json().dump(8));
    EXPECT_EQ(load_spec(indented.path()).normalized, reference);
    // Keys in reverse order, by hand (nlohmann would sort them).
    const ScratchSpec reordered(R"j({"budget": {"seconds": 600, "evaluations": 200},
        "check": {"atol": 1e-6, "rtol": 1e-5}, "nvrtc_options": ["-std=c++17"],
        "constants": [{"fill": {"step": 1, "start": 0, "kind": "iota"}, "count": "16",
                       "type": "float32", "name": "coefficients"}],
        "constraints": ["block_size_x * items_per_thread <= 8192"],
        "parameters": [{"default": 256, "values": [64, 128, 256, 512, 1024], "name": "block_size_x"},
                       {"default": 1, "values": [1, 2, 4, 8], "name": "items_per_thread"}],
        "launch": {"shared_memory_bytes": 0, "grid": ["ceil_div(n, block_size_x * items_per_thread)", 1, 1],
                   "block": ["block_size_x", 1, 1]
}
,
        "arguments": [{"value": 33554432, "type": "int32", "name": "n"},
                      {"value": 2.5, "type": "float32", "name": "a"},
                      {"fill": {"seed": 1, "max": 1, "min": -1, "kind": "uniform"}, "role": "input",
                       "count": "n", "pointer": true, "type": "float32", "name": "x"},
                      {"fill": {"seed": 2, "stddev": 1, "mean": 0, "kind": "normal"}, "role": "inout",
                       "count": "n", "pointer": true, "type": "float32", "name": "y"}],
        "include_dirs": ["include"], "kernel": "saxpy", "source": "saxpy.cu", "name": "saxpy"
})j");
    EXPECT_EQ(load_spec(reordered.path()).normalized, reference);
}

TEST(Normalize, TreatsOmittedDefaultsAsWrittenOut) {
    nlohmann::json omitted = fixture_json();
    omitted.erase("kernel");                         // defaults to name
    omitted.erase("check");                          // 1e-5, 1e-6
    omitted["budget"].erase("seconds");              // 600 (evaluations: "auto", not 200)
    omitted["launch"].erase("shared_memory_bytes");  // 0
    omitted["launch"]["block"] = {"block_size_x"};   // y, z default to 1
    omitted["launch"]["grid"] = {"ceil_div(n, block_size_x * items_per_thread)", "1"};
    omitted["arguments"][2].erase("role");            // input
    omitted["arguments"][3]["fill"].erase("mean");    // 0
    omitted["arguments"][3]["fill"].erase("stddev");  // 1
    omitted["arguments"][0]["pointer"] = false;       // scalars are not pointers
    omitted["constants"][0]["count"] = 16;            // integer or string alike
    omitted["constants"][0]["fill"].erase("start");   // 0
    omitted["arguments"][2]["fill"]["min"] = -1.0;    // -1 and -1.0 alike
    EXPECT_EQ(normalized(omitted), load_spec(fixture_path()).normalized);
}

// Keys made before budget.strategy existed (the committed seed caches) must keep hitting.
TEST(Normalize, TheDefaultStrategyLeavesTheNormalizedSpecAsBefore) {
    nlohmann::json written = fixture_json();
    written["budget"]["strategy"] = "auto";
    EXPECT_EQ(normalized(written), normalized(fixture_json()));
    EXPECT_FALSE(load_spec(fixture_path()).normalized["budget"].contains("strategy"));
    written["budget"]["strategy"] = "mcts";
    EXPECT_EQ(normalized(written)["budget"]["strategy"], "mcts");
}

// "compiler": "auto" (the default) keeps every key made before nvcc could compile variants.
TEST(Normalize, TheDefaultCompilerLeavesTheNormalizedSpecAsBefore) {
    nlohmann::json written = fixture_json();
    written["compiler"] = "auto";
    EXPECT_EQ(normalized(written), normalized(fixture_json()));
    written["compiler"] = "nvcc";
    EXPECT_EQ(normalized(written)["compiler"], "nvcc");
}

TEST(Normalize, ChangesWithEveryFieldThatChangesMeaning) {
    const nlohmann::json reference = normalized(fixture_json());
    const std::vector<std::pair<std::string, std::function<void(nlohmann::json&)>>> mutations = {
        {"name", [](nlohmann::json& s) { s["name"] = "saxpy2"; }},
        {"kernel", [](nlohmann::json& s) { s["kernel"] = "saxpy<float>"; }},
        {"include_dirs", [](nlohmann::json& s) { s["include_dirs"] = nlohmann::json::array(); }},
        {"scalar value", [](nlohmann::json& s) { s["arguments"][1]["value"] = 3.0; }},
        {"argument order",
         [](nlohmann::json& s) { std::swap(s["arguments"][2], s["arguments"][3]); }},
        {"argument type", [](nlohmann::json& s) { s["arguments"][2]["type"] = "float64"; }},
        {"count", [](nlohmann::json& s) { s["arguments"][2]["count"] = "n + 1"; }},
        {"role", [](nlohmann::json& s) { s["arguments"][2]["role"] = "inout"; }},
        {"fill seed", [](nlohmann::json& s) { s["arguments"][2]["fill"]["seed"] = 7; }},
        {"fill kind",
         [](nlohmann::json& s) {
             s["arguments"][2]["fill"] = {{"kind", "constant"}, {"value", -1}};
         }},
        {"block",
         [](nlohmann::json& s) {
             s["launch"]["block"] = {"block_size_x", 1, "1 + 0"};
         }},
        {"grid", [](nlohmann::json& s) { s["launch"]["grid"][0] = "ceil_div(n, block_size_x)"; }},
        {"shared memory", [](nlohmann::json& s) { s["launch"]["shared_memory_bytes"] = 16; }},
        {"parameter values",
         [](nlohmann::json& s) {
             s["parameters"][1]["values"] = {1, 2, 4};
         }},
        {"parameter default", [](nlohmann::json& s) { s["parameters"][0]["default"] = 128; }},
        {"constraint",
         [](nlohmann::json& s) {
             s["constraints"][0] = "block_size_x * items_per_thread <= 4096";
         }},
        {"constant fill", [](nlohmann::json& s) { s["constants"][0]["fill"]["step"] = 2; }},
        {"nvrtc option", [](nlohmann::json& s) { s["nvrtc_options"].push_back("-lineinfo"); }},
        {"rtol", [](nlohmann::json& s) { s["check"]["rtol"] = 1e-4; }},
        {"budget", [](nlohmann::json& s) { s["budget"]["evaluations"] = 300; }},
        {"strategy", [](nlohmann::json& s) { s["budget"]["strategy"] = "bayes"; }},
    };
    for (const auto& [what, mutate] : mutations) {
        nlohmann::json changed = fixture_json();
        mutate(changed);
        EXPECT_NE(normalized(changed), reference) << what;
    }
}

TEST(Normalize, HasNoAbsolutePathsAndDoesNotDependOnWhereTheSpecLives) {
    const nlohmann::json here = load_spec(fixture_path()).normalized;
    const ScratchSpec elsewhere(testing::read_text(fixture_path()));
    EXPECT_EQ(load_spec(elsewhere.path()).normalized, here);
    const std::string text = here.dump();
    EXPECT_EQ(text.find(data_dir().string()), std::string::npos);
    EXPECT_EQ(text.find(elsewhere.directory().string()), std::string::npos);
}

// The exact canonical form: changing it changes every cache key, so it must change on purpose.
TEST(Normalize, IsTheDocumentedCanonicalJsonOfTheExample) {
    const nlohmann::json expected = nlohmann::json::parse(R"j({
      "arguments": [
        {"name": "n", "pointer": false, "type": "int32", "value": 33554432},
        {"name": "a", "pointer": false, "type": "float32", "value": 2.5},
        {"count": "n", "fill": {"kind": "uniform", "max": 1.0, "min": -1.0, "seed": 1}, "name": "x",
         "pointer": true, "role": "input", "type": "float32"},
        {"count": "n", "fill": {"kind": "normal", "mean": 0.0, "seed": 2, "stddev": 1.0}, "name": "y",
         "pointer": true, "role": "inout", "type": "float32"}],
      "budget": {"evaluations": 200, "seconds": 600.0},
      "check": {"atol": 1e-06, "rtol": 1e-05},
      "constants": [{"count": "16", "fill": {"kind": "iota", "start": 0.0, "step": 1.0},
                     "name": "coefficients", "type": "float32"}],
      "constraints": ["block_size_x * items_per_thread <= 8192"],
      "include_dirs": ["include"],
      "kernel": "saxpy",
      "launch": {"block": ["block_size_x", "1", "1"],
                 "grid": ["ceil_div(n, block_size_x * items_per_thread)", "1", "1"],
                 "shared_memory_bytes": "0"},
      "name": "saxpy",
      "nvrtc_options": ["-std=c++17"],
      "parameters": [{"default": 256, "name": "block_size_x", "values": [64, 128, 256, 512, 1024]},
                     {"default": 1, "name": "items_per_thread", "values": [1, 2, 4, 8]}],
      "source": "saxpy.cu"
})j");
    const nlohmann::json actual = load_spec(fixture_path()).normalized;
    EXPECT_EQ(actual, expected) << actual.dump(2);
    // Floats stay floats and integers integers, so the dump (what is hashed) is stable too.
    EXPECT_EQ(actual.dump(), expected.dump());
}

}  // namespace
}  // namespace optiml::spec
