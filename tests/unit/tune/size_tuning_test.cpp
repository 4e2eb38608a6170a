// Tuning across the spec's problems (issue 29, item 2) through the scripted worker
// (tests/unit/measure/fake_timing_worker.sh), whose times depend on the block size and on the
// problem's n: small problems want small blocks, large ones large blocks. Each problem gets its
// own winner from a search that starts from the winners so far, every winner is timed at every
// problem, and the dispatch keeps the fewest variants within 3% of each problem's best.
#include "driver/tune/size_tuning.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "cache/store.h"
#include "driver/spec/spec.h"
#include "driver/tune/tuning.h"

namespace optiml::tune {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSpec = fs::path(OPTIML_SOURCE_DIR) / "tests/unit/measure/data/scale.optiml.json";

class SizeTuning : public ::testing::Test {
  protected:
    void SetUp() override {
        setenv("OPTIML_WORKER", OPTIML_FAKE_TIMING_WORKER, 1);
        setenv("OPTIML_PROFILE", "0", 1);
        // At n = 4096 (the arguments' own) the default table: 64 is best (0.64 ms). At 1024
        // 64 again; at 2^20 the large blocks win, 512 by far.
        setenv("FAKE_TIMES_BY_N",
               "1024=64:0.50,128:0.60,256:0.70,512:0.90;"
               "65536=64:1.00,128:0.975,256:1.20,512:1.30;"
               "1048576=64:3.00,128:2.00,256:1.50,512:1.00",
               1);
        request_log_ = fs::temp_directory_path() /
                       ("optiml-size-tuning-" + std::to_string(::getpid()) + ".log");
        setenv("FAKE_REQUEST_LOG", request_log_.c_str(), 1);
    }
    void TearDown() override {
        for (const char* name :
             {"OPTIML_WORKER", "OPTIML_PROFILE", "FAKE_TIMES_BY_N", "FAKE_REQUEST_LOG"})
            unsetenv(name);
        fs::remove(request_log_);
    }
    // The tuning of `text` through the scripted worker, exhaustively within `evaluations`.
    json tune(const json& text, int evaluations) {
        const spec::Spec spec = spec::parse_spec(text, kSpec);
        TuneRequest request;
        request.spec = &spec;
        request.device = {0, "Fake GPU", 90, 1, 1024, 13000, memory_bytes_};
        request.key = "test";
        // Images compiled once serve every problem's session (the image cache under the root).
        const fs::path images = request_log_.string() + ".root";
        request.cache_root = images;
        request.budget.evaluations = evaluations;
        request.budget.seconds = 1e9;
        request.budget.strategy = "exhaustive";
        std::ostringstream log;
        const auto entry = run_tuning(request, log);
        fs::remove_all(images);
        log_ = log.str();
        if (!entry) throw std::runtime_error("the tuning failed: " + log_);
        files_ = entry->files;
        // Stored and read back whole: every file, the size variants' images among them.
        cache::Entry stored = *entry;
        stored.key = std::string(64, 'a');
        const fs::path root = request_log_.string() + ".cache";
        cache::Store store(root);
        store.put(stored);
        const auto verified = store.verify();
        fs::remove_all(root);
        if (verified.size() != 1 || !verified[0].ok)
            throw std::runtime_error("the entry does not verify once stored");
        return entry->manifest;
    }
    json at_problems(const json& problems) {
        json text = json::parse(std::ifstream(kSpec));
        text["problems"] = problems;
        text.erase("budget");
        text["parameters"][0]["values"] = {64, 128, 256, 512};
        return tune(text, 20);
    }
    // How many requests of `op` the workers received (the scripted worker logs every request):
    // "setup" once a session.
    int requests(const std::string& op) const {
        std::ifstream in(request_log_);
        int count = 0;
        for (std::string line; std::getline(in, line);)
            count += line.find(R"("op":")" + op + "\"") != std::string::npos ? 1 : 0;
        return count;
    }
    long long memory_bytes_ = 0;  // the GPU's, as the probe gives it (0: not given)
    fs::path request_log_;
    std::string log_;
    std::map<std::string, std::string> files_;  // the entry's
};

TEST_F(SizeTuning, EachProblemGetsItsWinnerAndTheDispatchKeepsTheFewestWithinThreePercent) {
    const json m = at_problems({{{"n", 1048576}}, {{"n", 1024}}, {{"n", 65536}}});
    // What ships: the winner at the arguments' own n = 4096.
    EXPECT_EQ(m["parameters"]["block_size_x"], 64);
    const json& sizes = m.at("sizes");
    // Ascending by size.
    EXPECT_EQ(sizes["problems"], json::parse(R"([{"n":1024},{"n":65536},{"n":1048576}])"));
    // The winners: 64 (own and at 1024), 128 at 65536, 512 at 2^20.
    ASSERT_EQ(sizes["variants"].size(), 3u) << sizes.dump();
    EXPECT_EQ(sizes["variants"][0]["parameters"]["block_size_x"], 64);
    EXPECT_EQ(sizes["variants"][1]["parameters"]["block_size_x"], 128);
    EXPECT_EQ(sizes["variants"][2]["parameters"]["block_size_x"], 512);
    // Every winner at every problem.
    EXPECT_EQ(sizes["times_ms"],
              json::parse("[[0.5, 1.0, 3.0], [0.6, 0.975, 2.0], [0.9, 1.3, 1.0]]"));
    // 64 at 65536 is 2.6% off 128's best: within 3%, so two variants serve all three problems.
    EXPECT_EQ(sizes["dispatch"]["variants"], json::parse("[0, 2]"));
    ASSERT_EQ(sizes["dispatch"]["ranges"].size(), 2u);
    EXPECT_EQ(sizes["dispatch"]["ranges"][0]["variant"], 0);
    EXPECT_EQ(sizes["dispatch"]["ranges"][0]["last_problem"], 1);
    // Halfway between 65536 and 2^20 on a log scale: 2^18.
    EXPECT_DOUBLE_EQ(sizes["dispatch"]["ranges"][0]["below"].get<double>(), 262144.0);
    EXPECT_TRUE(sizes["dispatch"]["ranges"][1]["below"].is_null());
    // One variant everywhere loses 200% at 2^20.
    EXPECT_DOUBLE_EQ(sizes["single_variant_loss"][2].get<double>(), 2.0);
    // Later problems start from the winners so far, on half the budget.
    ASSERT_EQ(sizes["searches"].size(), 3u);
    for (const json& search : sizes["searches"]) EXPECT_LE(search["evaluations"], 10);
    EXPECT_NE(log_.find("dispatch by size: 2 of 3 variants keep every problem within 3% of its "
                        "best: variant 0 (block_size_x=64) where n < 2.62e+05, variant 2 "
                        "(block_size_x=512) above"),
              std::string::npos)
        << log_;
    EXPECT_NE(log_.find("200% slower than that problem's best"), std::string::npos) << log_;
    // The dispatched variant besides the shipped one has its images in the entry.
    const json& images = sizes["dispatch"]["images"];
    ASSERT_EQ(images.size(), 1u) << images.dump();
    EXPECT_EQ(images["2"]["cubin"], "size_2.cubin");
    EXPECT_EQ(images["2"]["ptx"], "size_2.ptx");
    // Its kernel's symbol in them: what the launcher's dispatch by size looks it up by.
    EXPECT_NE(
        files_.at("size_2.ptx").find(".entry " + images["2"]["lowered_name"].get<std::string>()),
        std::string::npos);
    EXPECT_EQ(m["files"]["size_cubin_2"], "size_2.cubin");
    EXPECT_EQ(m["files"]["size_ptx_2"], "size_2.ptx");
    ASSERT_TRUE(files_.contains("size_2.ptx"));
    EXPECT_NE(files_.at("size_2.ptx").find(".entry"), std::string::npos);
    EXPECT_FALSE(files_.at("size_2.cubin").empty());
    EXPECT_FALSE(files_.contains("size_0.cubin"));  // the shipped winner's are kernel.cubin/.ptx
    // The entry's manifest reads back with it.
    EXPECT_EQ(cache::to_json(cache::read_entry_manifest(m, "test"))["sizes"], sizes);
}

// With room on the GPU the matrix times each problem in the session its search used, so no
// problem's session starts twice, and takes what that search measured; without a memory size
// every problem's session opens again and times every variant. The matrix is the same either way.
TEST_F(SizeTuning, TheMatrixTimesInTheSearchesSessionsWhereTheyFit) {
    const json problems = {{{"n", 1048576}}, {{"n", 1024}}, {{"n", 65536}}};
    const json reopened = at_problems(problems)["sizes"];
    // The first tuning's session, a session a problem for its search, another for the matrix.
    EXPECT_EQ(requests("setup"), 1 + 3 + 3);
    const int evaluated = requests("evaluate");
    EXPECT_NE(log_.find("3 problems timed in"), std::string::npos) << log_;
    EXPECT_NE(log_.find(", 0 of them in their search's session"), std::string::npos) << log_;

    fs::remove(request_log_);
    memory_bytes_ = 80LL << 30;
    const json kept = at_problems(problems)["sizes"];
    EXPECT_EQ(requests("setup"), 1 + 3);
    EXPECT_NE(log_.find(", 3 of them in their search's session"), std::string::npos) << log_;
    // Each search measured every block size there (four of them, exhaustively): the matrix takes
    // its three variants' times from the searches and times none of them again.
    EXPECT_EQ(requests("evaluate"), evaluated - 3 * 3);
    EXPECT_EQ(kept["times_ms"], reopened["times_ms"]);
    EXPECT_EQ(kept["dispatch"]["variants"], reopened["dispatch"]["variants"]);
}

// A problem at the arguments' own values (n = 4096) is not searched again: its winner is the
// first tuning's, and it is timed beside the others like any problem.
TEST_F(SizeTuning, TheArgumentsOwnValuesAreNotSearchedTwice) {
    const json m = at_problems({{{"n", 4096}}, {{"n", 1048576}}});
    const json& sizes = m.at("sizes");
    EXPECT_EQ(sizes["problems"], json::parse(R"([{"n":4096},{"n":1048576}])"));
    EXPECT_EQ(sizes["searches"][0]["evaluations"], 0);
    EXPECT_EQ(sizes["searches"][0]["stop_reason"], "the arguments' own values: tuned first");
    EXPECT_GT(sizes["searches"][1]["evaluations"], 0);
    ASSERT_EQ(sizes["variants"].size(), 2u);
    EXPECT_DOUBLE_EQ(sizes["times_ms"][0][0].get<double>(), 0.64);  // the default table's 64
    EXPECT_NE(log_.find("n=4096: the arguments' own values, tuned first"), std::string::npos)
        << log_;
}

TEST_F(SizeTuning, ASpecWithoutProblemsRecordsNone) {
    const json m = tune(json::parse(std::ifstream(kSpec)), 6);
    EXPECT_FALSE(m.contains("sizes"));
    EXPECT_EQ(log_.find("problems"), std::string::npos) << log_;
}

}  // namespace
}  // namespace optiml::tune
