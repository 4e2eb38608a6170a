// The lookup chain: backends asked in order, the first entry wins, a damaged entry is reported
// once and the next backend serves the build.
#include <gtest/gtest.h>

#include <fstream>

#include "cache/detail/layout.h"
#include "cache/lookup_chain.h"
#include "tests/unit/cache/scratch.h"

namespace optiml::cache {
namespace {

using testing::sample_entry;
using testing::ScratchDir;

class LookupChainTest : public ::testing::Test {
  protected:
    // A chain of the local store and one seed, each holding what `local` and `seed` name.
    LookupChain chain(const std::vector<Entry>& local, const std::vector<Entry>& seed) {
        Store local_store(scratch_.path() / "local");
        for (const Entry& entry : local) local_store.put(entry);
        Store seed_writer(scratch_.path() / "seed");
        for (const Entry& entry : seed) seed_writer.put(entry);
        std::filesystem::create_directories(scratch_.path() / "seed/entries");
        LookupChain result;
        result.add(std::make_unique<LocalBackend>(local_store), "cache");
        result.add(std::make_unique<LocalBackend>(Store(scratch_.path() / "seed", true)), "seed");
        return result;
    }
    std::function<void(const std::string&)> collect() {
        return [this](const std::string& message) { warnings_.push_back(message); };
    }
    ScratchDir scratch_;
    std::vector<std::string> warnings_;
};

TEST_F(LookupChainTest, TheFirstBackendThatHasTheEntryAnswers) {
    Entry seeded = sample_entry("seeded");
    Entry local = seeded;
    local.manifest["kernel"] = "local copy";
    const auto found = chain({local}, {seeded}).fetch(seeded.key, collect());
    ASSERT_TRUE(found);
    EXPECT_EQ(found->entry.manifest["kernel"], "local copy");
    EXPECT_EQ(found->where, "cache " + (scratch_.path() / "local").string());
    EXPECT_TRUE(warnings_.empty());
}

TEST_F(LookupChainTest, ASeedAnswersWhatTheLocalCacheLacks) {
    const Entry seeded = sample_entry("seeded");
    const auto found = chain({}, {seeded}).fetch(seeded.key, collect());
    ASSERT_TRUE(found);
    EXPECT_EQ(found->where, "seed " + (scratch_.path() / "seed").string());
    EXPECT_EQ(found->entry.files.at("kernel.cubin"), seeded.files.at("kernel.cubin"));
}

TEST_F(LookupChainTest, ADamagedLocalEntryIsReportedAndTheSeedServes) {
    const Entry entry = sample_entry("damaged locally");
    LookupChain both = chain({entry}, {entry});
    const std::string key = entry.key;
    std::ofstream(detail::entry_dir(scratch_.path() / "local", key) / "kernel.cubin",
                  std::ios::trunc)
        << "torn";
    const auto found = both.fetch(key, collect());
    ASSERT_TRUE(found);
    EXPECT_EQ(found->where.rfind("seed ", 0), 0u) << found->where;
    ASSERT_EQ(warnings_.size(), 1u);
    EXPECT_EQ(warnings_[0].rfind("ignoring a damaged cache entry: ", 0), 0u) << warnings_[0];
}

TEST_F(LookupChainTest, AKeyNoBackendHasIsAbsent) {
    EXPECT_FALSE(
        chain({sample_entry("a")}, {sample_entry("b")}).fetch(sample_entry("c").key, collect()));
    EXPECT_TRUE(warnings_.empty());
}

}  // namespace
}  // namespace optiml::cache
