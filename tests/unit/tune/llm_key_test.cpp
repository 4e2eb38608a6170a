// The cache key and the LLM (docs/caching.md, "The LLM"): a tuning the LLM takes part in has a
// key of its own, per model; the API key and the endpoint's address never enter it; a build with
// an endpoint and no GPU falls back to the entry tuned without the LLM.
#include "driver/identity/kernel_key.h"
#include "tests/unit/build/build_test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "driver/llm/prompt.h"
#include "driver/tune/llm_settings.h"

namespace optiml::tune {
namespace {
namespace fs = std::filesystem;

const fs::path kSaxpy = fs::path(OPTIML_SOURCE_DIR) / "examples/saxpy/kernels/saxpy.optiml.json";

llm::LlmConfig endpoint(const std::string& model, const std::string& url, const std::string& key) {
    llm::LlmConfig config;
    config.base_url = url;
    config.model = model;
    config.api_key = key;
    return config;
}

class LlmKeyTest : public ::testing::Test {
  protected:
    std::string key_with(const llm::LlmConfig& config) const {
        return cache::compute_key(inputs_with(config));
    }
    cache::KeyInputs inputs_with(const llm::LlmConfig& config) const {
        return identity::key_inputs(spec_, sources_, 90,
                                    llm_key_inputs(config, spec_.budget.strategy));
    }
    spec::Spec spec_ = spec::load_spec(kSaxpy);
    identity::KernelSources sources_ = identity::scan_sources(spec_);
};

TEST_F(LlmKeyTest, AnEndpointChangesTheKeyAndEachModelHasItsOwn) {
    const std::string without = key_with({});
    EXPECT_EQ(without, cache::compute_key(identity::key_inputs(spec_, sources_, 90)));
    const std::string qwen = key_with(endpoint("qwen2.5-coder", "http://127.0.0.1:8080/v1", ""));
    const std::string gpt = key_with(endpoint("gpt-5", "http://127.0.0.1:8080/v1", ""));
    EXPECT_NE(without, qwen);
    EXPECT_NE(without, gpt);
    EXPECT_NE(qwen, gpt);
}

TEST_F(LlmKeyTest, TheApiKeyNeverEntersTheKeyNorWhatTheManifestRecords) {
    const std::string secret = "sk-test-4c1d9e0f7a2b";
    const auto with_key = endpoint("m", "https://api.example.com/v1", secret);
    EXPECT_EQ(key_with(with_key), key_with(endpoint("m", "https://api.example.com/v1", "")));
    EXPECT_EQ(identity::key_summary(inputs_with(with_key)).dump().find(secret), std::string::npos);
}

// Replay has no endpoint and must find what the recording run stored; another server of the same
// model answers the same exchanges (docs/llm.md), so the address is left out.
TEST_F(LlmKeyTest, ReplayAndAnotherAddressOfTheSameModelShareTheKey) {
    const std::string recorded = key_with(endpoint("m", "http://gpu-box:8000/v1", ""));
    llm::LlmConfig replay;
    replay.replay = true;
    replay.model = "m";
    EXPECT_EQ(recorded, key_with(replay));
    EXPECT_EQ(recorded, key_with(endpoint("m", "https://other.example.com/v1", "")));
}

TEST_F(LlmKeyTest, TheSummaryNamesTheModelAndEveryTuningPrompt) {
    const nlohmann::json summary =
        identity::key_summary(inputs_with(endpoint("m", "http://h/v1", "")));
    ASSERT_TRUE(summary.contains("llm")) << summary.dump(2);
    EXPECT_EQ(summary["llm"]["model"], "m");
    EXPECT_EQ(summary["llm"]["prompts"], llm::tuning_prompt_fingerprints());
    EXPECT_EQ(summary["llm"]["prompts"].size(), 4u);
    EXPECT_EQ(summary["llm"]["prompts"][0].get<std::string>().rfind("propose@1 ", 0), 0u);
    EXPECT_FALSE(identity::key_summary(inputs_with({})).contains("llm"));
}

// A strategy without the transformation tree never asks the model: the key stays the plain one.
TEST_F(LlmKeyTest, AStrategyWithoutTheTreeLeavesTheModelOut) {
    EXPECT_FALSE(llm_key_inputs(endpoint("m", "http://h/v1", ""), "exhaustive").takes_part);
    setenv("OPTIML_TRANSFORM", "0", 1);
    EXPECT_FALSE(llm_key_inputs(endpoint("m", "http://h/v1", ""), "auto").takes_part);
    unsetenv("OPTIML_TRANSFORM");
    EXPECT_TRUE(llm_key_inputs(endpoint("m", "http://h/v1", ""), "auto").takes_part);
}

TEST_F(LlmKeyTest, TheCopyUnderThePlainKeyRecordsWhereItCameFrom) {
    const cache::KeyInputs with = inputs_with(endpoint("m", "http://h/v1", ""));
    cache::Entry entry;
    entry.key = cache::compute_key(with);
    entry.manifest = {{"key_inputs", identity::key_summary(with)}, {"speedup", 2.5}};
    entry.files["kernel.cubin"] = "bytes";
    const cache::KeyInputs plain = identity::key_inputs(spec_, sources_, 90);
    const cache::Entry copy = identity::llm_entry_for_base_key(entry, cache::compute_key(plain),
                                                               identity::key_summary(plain));
    EXPECT_EQ(copy.key, cache::compute_key(plain));
    EXPECT_EQ(copy.manifest["key_inputs"], identity::key_summary(plain));
    EXPECT_EQ(copy.manifest["tuned_with_llm"]["key"], entry.key);
    EXPECT_EQ(copy.manifest["tuned_with_llm"]["llm"]["model"], "m");
    EXPECT_EQ(copy.manifest["speedup"], 2.5);
    EXPECT_EQ(copy.files, entry.files);
}

// No GPU, an endpoint configured, the saxpy seed holding an entry tuned without an LLM: the key
// of this model misses, and the build ships the seed's entry rather than the original kernel.
TEST(LlmKeyBuildTest, WithAnEndpointAndNoGpuTheEntryTunedWithoutItIsUsed) {
    setenv("OPTIML_WORKER", OPTIML_FAKE_WORKER, 1);
    setenv("FAKE_DEVICES", "0", 1);
    const fs::path dir =
        fs::temp_directory_path() / ("optiml-llm-key-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    build::BuildOptions options;
    options.spec = kSaxpy;
    options.archs = {90};
    options.out_dir = dir / "out";
    options.cache_dir = dir / "cache";
    options.seeds = {fs::path(OPTIML_SOURCE_DIR) / "examples/saxpy/optiml-seed"};
    options.llm = endpoint("some-model", "http://127.0.0.1:9/v1", "");
    const std::string log = build::test::successful_build(options);
    EXPECT_NE(log.find("no entry tuned with the LLM model 'some-model'"), std::string::npos) << log;
    EXPECT_NE(log.find("tuned without it"), std::string::npos) << log;
    EXPECT_EQ(log.find("optiml: warning"), std::string::npos) << log;
    EXPECT_NE(build::test::read_text(options.out_dir / "optiml_saxpy.cu").find("vector_size=4"),
              std::string::npos);
    unsetenv("FAKE_DEVICES");
    fs::remove_all(dir);
}

}  // namespace
}  // namespace optiml::tune
