// `optiml profile --variant tuned` compiles the candidate the cache entry ships, not its
// parameters alone on the original source: a winner's derived source, its compile options
// (Kernel Tuner's matmul: launch_bounds + --maxrregcount=32) and parameters, read back from a
// stored entry, are what the compiler is given and what the report names. No GPU needed.
#include "driver/tune/detail/profiled_variant.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "cache/key.h"
#include "driver/base/read_file.h"
#include "driver/base/scratch_dir.h"
#include "driver/search/candidate_json.h"

namespace optiml::tune {
namespace {

namespace fs = std::filesystem;

const std::string kKey(64, 'a');

spec::Spec saxpy() {
    return spec::load_spec(fs::path(OPTIML_SOURCE_DIR) /
                           "examples/saxpy/kernels/saxpy.optiml.json");
}

// An entry as tuning writes one for `winner`, stored and read back as profile reads it.
cache::Entry stored(const base::ScratchDir& dir, const search::Candidate& winner,
                    const std::string& derived_text) {
    cache::Entry entry;
    entry.key = kKey;
    entry.files["kernel.cubin"] = "cubin";
    entry.manifest = {{"name", "saxpy"},
                      {"parameters", winner.parameters},
                      {"files", {{"cubin", "kernel.cubin"}}}};
    search::write_candidate(winner, entry.manifest);
    if (!derived_text.empty()) {
        entry.files["kernel.cu"] = derived_text;
        entry.manifest["files"]["source"] = "kernel.cu";
    }
    cache::Store store(dir.path());
    store.put(entry);
    return *store.inspect(kKey);
}

search::Config tuned_parameters() {
    return {{"block_size_x", 128}, {"items_per_thread", 2}, {"vector_size", 1}};
}

bool has(const std::vector<std::string>& options, const std::string& option) {
    return std::find(options.begin(), options.end(), option) != options.end();
}

TEST(ProfiledVariant, ATunedWinnerIsItsOwnSourceOptionsAndParameters) {
    const spec::Spec spec = saxpy();
    const std::string original = base::read_file(spec.source);
    const std::string derived = "#define OPTIML_LAUNCH_BOUNDS __launch_bounds__(128)\n" + original;
    const search::Candidate winner(tuned_parameters(), cache::sha256_hex(derived),
                                   {"launch_bounds(128)"}, {"--maxrregcount=32"});
    base::ScratchDir dir;
    const ProfiledVariant variant = shipped_variant(spec, stored(dir, winner, derived));
    EXPECT_EQ(variant.kind, "tuned");
    EXPECT_EQ(variant.candidate, winner);

    const compile::CompileRequest request =
        variant_request(spec, variant, 90, compile::Output::Cubin);
    EXPECT_EQ(request.source_text, derived);  // not the spec's source
    EXPECT_TRUE(has(request.options, "--maxrregcount=32"));
    EXPECT_EQ(request.defines, tuned_parameters());

    const nlohmann::json json = variant_json(variant, request);
    EXPECT_EQ(json.at("source_sha256"), cache::sha256_hex(derived));
    EXPECT_NE(json.at("source_sha256"), cache::sha256_hex(original));
    EXPECT_EQ(json.at("options"), nlohmann::json({"--maxrregcount=32"}));
    EXPECT_EQ(json.at("transformations"), nlohmann::json({"launch_bounds(128)"}));
    EXPECT_EQ(json.at("parameters"), nlohmann::json(tuned_parameters()));
    EXPECT_EQ(json.at("entry_key"), kKey);
    EXPECT_TRUE(json.at("compile_options").get<std::vector<std::string>>() == request.options);
    EXPECT_NE(variant_label(variant).find("--maxrregcount=32"), std::string::npos);
}

TEST(ProfiledVariant, AWinnerOfTheOriginalSourceKeepsItsOptions) {
    const spec::Spec spec = saxpy();
    const search::Candidate winner(tuned_parameters(), "", {}, {"-Xptxas=-dlcm=cg"});
    base::ScratchDir dir;
    const ProfiledVariant variant = shipped_variant(spec, stored(dir, winner, ""));
    const compile::CompileRequest request =
        variant_request(spec, variant, 90, compile::Output::Cubin);
    EXPECT_EQ(request.source_text, base::read_file(spec.source));
    EXPECT_TRUE(has(request.options, "-Xptxas=-dlcm=cg"));
    EXPECT_EQ(variant_json(variant, request).at("options"), nlohmann::json({"-Xptxas=-dlcm=cg"}));
}

TEST(ProfiledVariant, ADerivedSourceTheEntryDoesNotHoldIsAnError) {
    const spec::Spec spec = saxpy();
    const std::string derived = "// derived\n" + base::read_file(spec.source);
    base::ScratchDir dir;
    // No text at all.
    search::Candidate winner(tuned_parameters(), cache::sha256_hex(derived), {"unroll"}, {});
    EXPECT_THROW(shipped_variant(spec, stored(dir, winner, "")), cache::CacheError);
    // A text of another source than the manifest names.
    cache::Entry other = stored(dir, winner, "");
    other.files["kernel.cu"] = "// another text\n";
    other.manifest["files"]["source"] = "kernel.cu";
    EXPECT_THROW(shipped_variant(spec, other), cache::CacheError);
}

TEST(ProfiledVariant, TheOriginalAndGivenParametersAreTheSpecsSource) {
    const spec::Spec spec = saxpy();
    const std::string sha = cache::sha256_hex(base::read_file(spec.source));
    const ProfiledVariant original = original_variant(spec);
    const auto original_json =
        variant_json(original, variant_request(spec, original, 90, compile::Output::Cubin));
    EXPECT_EQ(original_json.at("source_sha256"), sha);
    EXPECT_TRUE(original_json.at("options").empty());
    EXPECT_EQ(variant_label(original), "original");

    const ProfiledVariant given = parameters_variant(spec, "block_size_x=512,vector_size=4");
    EXPECT_EQ(given.candidate.parameters.at("block_size_x"), 512);
    EXPECT_EQ(given.candidate.parameters.at("items_per_thread"), 1);  // the spec's default
    EXPECT_EQ(given.candidate.parameters.at("vector_size"), 4);
    EXPECT_THROW(parameters_variant(spec, "tile=4"), std::invalid_argument);
}

}  // namespace
}  // namespace optiml::tune
