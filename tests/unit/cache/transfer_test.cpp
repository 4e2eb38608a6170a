// export_to / import_from: how seed caches are written and read.
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "cache/store.h"
#include "scratch.h"

namespace optiml::cache {
namespace {

using testing::sample_entry;
using testing::ScratchDir;

TEST(Export, WritesASeedCacheThatOpensReadOnly) {
    ScratchDir scratch;
    Store local(scratch.path() / "local");
    const Entry saxpy = sample_entry("saxpy");
    const Entry matmul = sample_entry("matmul");
    const Entry unrelated = sample_entry("unrelated");
    for (const Entry* entry : {&saxpy, &matmul, &unrelated}) local.put(*entry);

    const std::filesystem::path seed_dir = scratch.path() / "project" / "optiml-seed";
    std::vector<std::string> copied = local.export_to(seed_dir, {saxpy.key, matmul.key});
    std::sort(copied.begin(), copied.end());
    std::vector<std::string> expected{saxpy.key, matmul.key};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(copied, expected);

    Store seed(seed_dir, /*read_only=*/true);
    EXPECT_EQ(seed.keys(), expected);
    EXPECT_EQ(seed.get(saxpy.key)->files, saxpy.files);
    for (const Store::VerifyResult& result : seed.verify())
        EXPECT_TRUE(result.ok) << result.problem;
    // Only what a project should commit: no staging folder, no LRU markers.
    EXPECT_FALSE(std::filesystem::exists(seed_dir / "tmp"));
    for (const auto& item : std::filesystem::recursive_directory_iterator(seed_dir)) {
        EXPECT_NE(item.path().extension(), ".used") << item.path();
    }
}

TEST(Export, IsIdempotentAndExportsEverythingByDefault) {
    ScratchDir scratch;
    Store local(scratch.path() / "local");
    local.put(sample_entry("a"));
    local.put(sample_entry("b"));
    EXPECT_EQ(local.export_to(scratch.path() / "seed", {}).size(), 2U);
    EXPECT_TRUE(local.export_to(scratch.path() / "seed", {}).empty());
    EXPECT_EQ(Store(scratch.path() / "seed", true).keys(), local.keys());
}

TEST(Export, EmptyStoreStillWritesAValidSeed) {
    ScratchDir scratch;
    Store local(scratch.path() / "local");
    EXPECT_TRUE(local.export_to(scratch.path() / "seed", {}).empty());
    EXPECT_TRUE(Store(scratch.path() / "seed", /*read_only=*/true).keys().empty());
}

TEST(Export, UnknownKeyFailsWithoutWritingAnything) {
    ScratchDir scratch;
    Store local(scratch.path() / "local");
    const Entry present = sample_entry("present");
    local.put(present);
    const std::string missing = sha256_hex("missing");
    try {
        local.export_to(scratch.path() / "seed", {present.key, missing});
        FAIL() << "exported a key that is not there";
    } catch (const CacheError& error) {
        EXPECT_NE(std::string(error.what()).find(missing), std::string::npos);
    }
    EXPECT_FALSE(std::filesystem::exists(scratch.path() / "seed"));
}

TEST(Export, DamagedEntryFailsWithoutWritingAnything) {
    ScratchDir scratch;
    Store local(scratch.path() / "local");
    const Entry entry = sample_entry("damaged");
    local.put(entry);
    std::ofstream(local.root() / "entries" / entry.key.substr(0, 2) / entry.key / "kernel.ptx")
        << "tampered";
    EXPECT_THROW(local.export_to(scratch.path() / "seed", {}), DamagedEntryError);
    EXPECT_FALSE(std::filesystem::exists(scratch.path() / "seed"));
}

TEST(Import, CopiesEveryEntryAndLeavesTheSourceUntouched) {
    ScratchDir scratch;
    Store seed_writer(scratch.path() / "seed");
    const Entry a = sample_entry("a");
    const Entry b = sample_entry("b");
    seed_writer.put(a);
    seed_writer.put(b);

    Store local(scratch.path() / "local");
    local.put(a);  // already present: kept, not counted
    EXPECT_EQ(local.import_from(scratch.path() / "seed"), std::vector<std::string>{b.key});
    EXPECT_EQ(local.keys(), seed_writer.keys());
    EXPECT_EQ(local.get(b.key)->files, b.files);
    for (const auto& item :
         std::filesystem::recursive_directory_iterator(scratch.path() / "seed")) {
        EXPECT_NE(item.path().extension(), ".used") << "import marked the source as used";
    }
}

TEST(Import, FromAFolderThatIsNotACacheIsAClearError) {
    ScratchDir scratch;
    Store local(scratch.path() / "local");
    try {
        local.import_from(scratch.path() / "nowhere");
        FAIL() << "imported from a missing folder";
    } catch (const CacheError& error) {
        EXPECT_NE(std::string(error.what()).find("nowhere"), std::string::npos);
    }
}

}  // namespace
}  // namespace optiml::cache
