// The typed entry manifest: its writer gives back the committed seed entries' manifests field for
// field, an entry from before a field existed still reads, and a field of the wrong type is named.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "cache/entry_manifest.h"
#include "cache/store.h"

namespace optiml::cache {
namespace {

namespace fs = std::filesystem;

Entry seed_entry(const std::string& example) {
    const Store seed(fs::path(OPTIML_SOURCE_DIR) / "examples" / example / "optiml-seed", true);
    return *seed.inspect(seed.keys().at(0));
}

// Every value of `stored`, object members recursively, is in `written` unchanged.
void expect_kept(const nlohmann::json& stored, const nlohmann::json& written,
                 const std::string& path) {
    if (!stored.is_object()) {
        EXPECT_EQ(written, stored) << path;
        return;
    }
    ASSERT_TRUE(written.is_object()) << path;
    for (const auto& [field, value] : stored.items()) {
        ASSERT_TRUE(written.contains(field)) << path << "." << field;
        expect_kept(value, written.at(field), path + "." + field);
    }
}

class SeedManifest : public ::testing::TestWithParam<std::string> {};

// Every stored field comes back unchanged; a field the entry predates is written with its default.
TEST_P(SeedManifest, ReadThenWrittenKeepsEveryFieldAsStored) {
    const Entry entry = seed_entry(GetParam());
    const EntryManifest manifest = read_entry_manifest(entry);
    const nlohmann::json written = to_json(manifest);
    expect_kept(entry.manifest, written, "manifest");
    EXPECT_EQ(manifest.arch, "sm_90");
    EXPECT_GT(manifest.speedup, 0.0);
    EXPECT_EQ(manifest.winner.parameters, entry.manifest.at("parameters").get<search::Config>());
    EXPECT_EQ(manifest.file("cubin"), entry.manifest.at("files").at("cubin").get<std::string>());
    EXPECT_TRUE(entry.files.contains(manifest.file("cubin")));
    // The store's own fields are kept, not interpreted.
    EXPECT_EQ(manifest.other.at("key").get<std::string>(), entry.key);
    EXPECT_TRUE(manifest.other.contains("sha256"));
}

INSTANTIATE_TEST_SUITE_P(Examples, SeedManifest, ::testing::Values("saxpy", "matmul"));

TEST(EntryManifest, AnEntryFromBeforeAFieldExistedReadsWithItsDefault) {
    const nlohmann::json old = {{"name", "saxpy"},
                                {"arch", "sm_80"},
                                {"parameters", {{"block", 256}}},
                                {"time_ms", {{"median", 0.5}}},
                                {"speedup", 1.5}};
    const EntryManifest manifest = read_entry_manifest(old, "old/manifest.json");
    EXPECT_EQ(manifest.name, "saxpy");
    EXPECT_EQ(manifest.winner.parameters, (search::Config{{"block", 256}}));
    EXPECT_TRUE(manifest.winner.is_original_source());
    EXPECT_DOUBLE_EQ(manifest.time_ms.median, 0.5);
    EXPECT_EQ(manifest.time_ms.runs, 0);
    EXPECT_EQ(manifest.compiler_backend, "nvrtc");  // entries from before nvcc existed
    EXPECT_TRUE(manifest.search.tree.is_null());
    EXPECT_TRUE(manifest.timing.is_null());
    EXPECT_EQ(manifest.file("cubin"), "");
    EXPECT_TRUE(manifest.other.empty());
}

TEST(EntryManifest, ADerivedWinnerKeepsItsSourceTransformationsAndOptions) {
    EntryManifest manifest;
    manifest.winner = search::Candidate({{"block", 128}}, "ab12", {"unroll 4"}, {"-use_fast_math"});
    manifest.search.tree = {{"nodes", nlohmann::json::array()}};
    manifest.other["signature"] = {{"algorithm", "ed25519"}};
    const nlohmann::json json = to_json(manifest);
    EXPECT_EQ(json.at("source_id"), "ab12");
    EXPECT_EQ(json.at("search").at("tree").at("nodes"), nlohmann::json::array());
    const EntryManifest back = read_entry_manifest(json, "test");
    EXPECT_EQ(back.winner, manifest.winner);
    EXPECT_EQ(back.other.at("signature").at("algorithm"), "ed25519");
    EXPECT_EQ(to_json(back), json);
}

TEST(EntryManifest, AFieldOfTheWrongTypeIsNamedWithWhereAndTheFix) {
    const auto message = [](const nlohmann::json& json) {
        try {
            read_entry_manifest(json, "entries/ab/ab12/manifest.json");
        } catch (const CacheError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string speedup = message({{"speedup", "fast"}});
    EXPECT_NE(speedup.find("entries/ab/ab12/manifest.json"), std::string::npos) << speedup;
    EXPECT_NE(speedup.find("\"speedup\" is not a number"), std::string::npos) << speedup;
    EXPECT_NE(speedup.find("delete the entry's folder"), std::string::npos) << speedup;
    EXPECT_NE(message({{"device", {{"name", 7}}}}).find("\"device.name\" is not a string"),
              std::string::npos);
    EXPECT_NE(message({{"search", {{"budget", {{"seconds", "x"}}}}}})
                  .find("search: manifest field \"budget.seconds\""),
              std::string::npos);
    EXPECT_NE(message({{"parameters", "block=1"}}).find("\"parameters\" is not"),
              std::string::npos);
    EXPECT_NE(message({{"options", "-O3"}}).find("\"options\" is not"), std::string::npos);
    EXPECT_NE(message(nlohmann::json::array()).find("not an object"), std::string::npos);
}

// Found by fuzzing (issue 30): a number out of an integer field's range was converted with
// undefined behaviour (1e300 into an int) or wrapped (3000000000 into an int).
TEST(EntryManifest, ANumberOutOfAnIntegerFieldsRangeIsNamed) {
    const auto message = [](const std::string& text) {
        try {
            read_entry_manifest(nlohmann::json::parse(text), "entries/ab/ab12/manifest.json");
        } catch (const CacheError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message(R"({"schema": 1e300})").find("\"schema\" is not an integer in range"),
              std::string::npos);
    EXPECT_NE(message(R"({"time_ms": {"runs": 3000000000}})")
                  .find("\"time_ms.runs\" is not an integer in range"),
              std::string::npos);
    EXPECT_NE(message(R"({"search": {"space_size": -1e300}})").find("\"space_size\""),
              std::string::npos);
    EXPECT_NE(message(R"({"devices": [0, 1e300]})").find("\"devices\" is not"), std::string::npos);
    EXPECT_NE(message(R"({"parameters": {"block_size_x": 18446744073709551615}})")
                  .find("\"parameters\" is not"),
              std::string::npos);
    // A whole number written as a float still reads.
    EXPECT_EQ(
        read_entry_manifest(nlohmann::json::parse(R"({"schema": 1.0, "devices": [2.0]})"), "m.json")
            .devices,
        std::vector<int>{2});
}

}  // namespace
}  // namespace optiml::cache
