// The file liboptiml-activity.so writes, written through the library's own code and read back by
// the driver's reader; the records are constructed, not recorded from a program.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "driver/base/atomic_write.h"
#include "driver/profile/activity/activity_file.h"
#include "driver/profile/detail/activity_reader.h"

namespace optiml::profile {
namespace {

namespace fs = std::filesystem;

class ActivityFileTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("optiml-activity-test-" + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
};

TEST_F(ActivityFileTest, WhatTheLibraryWritesTheDriverReadsBackExactly) {
    activity::ActivityFile written;
    written.pid = 4242;
    written.error = "cuptiActivityFlushAll failed: \"quoted\"\n";
    written.dropped_records = 7;
    written.launches.push_back({"_Z4gemmPKfS0_Pfi",
                                "gemm(float const*, float const*, float*, int)",
                                100,
                                600,
                                {64, 64, 1},
                                {16, 16, 1},
                                1});
    written.launches.push_back(
        {"odd\\name\t\x01", "", 700, 0, {4294967295u, 2, 3}, {1024, 1, 1}, 0});
    const fs::path file = dir_ / "activity.json";
    const std::string error =
        base::try_write_file_atomically(file, activity::to_json_text(written));
    ASSERT_EQ(error, "");

    const activity::ActivityFile read = read_activity_file(file);
    EXPECT_EQ(read.pid, 4242);
    EXPECT_EQ(read.error, written.error);
    EXPECT_EQ(read.dropped_records, 7u);
    ASSERT_EQ(read.launches.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(read.launches[i].name, written.launches[i].name);
        EXPECT_EQ(read.launches[i].demangled_name, written.launches[i].demangled_name);
        EXPECT_EQ(read.launches[i].start_ns, written.launches[i].start_ns);
        EXPECT_EQ(read.launches[i].end_ns, written.launches[i].end_ns);
        EXPECT_EQ(read.launches[i].grid, written.launches[i].grid);
        EXPECT_EQ(read.launches[i].block, written.launches[i].block);
        EXPECT_EQ(read.launches[i].device, written.launches[i].device);
    }
}

TEST_F(ActivityFileTest, NoErrorIsWrittenAsNullAndReadAsEmpty) {
    const std::string text = activity::to_json_text({});
    EXPECT_NE(text.find("\"error\":null"), std::string::npos);
    EXPECT_EQ(activity_from_json(nlohmann::json::parse(text), "text").error, "");
}

TEST(ActivityNames, MangledNamesAreDemangledAndOthersLeftEmpty) {
    EXPECT_EQ(activity::demangle("_Z4gemmPKfS0_Pfi"),
              "gemm(float const*, float const*, float*, int)");
    EXPECT_EQ(activity::demangle("_ZN2nn7softmaxIfLi128EEEvPKfPfi"),
              "void nn::softmax<float, 128>(float const*, float*, int)");
    EXPECT_EQ(activity::demangle("relu_kernel"), "");  // extern "C": not mangled
    EXPECT_EQ(activity::demangle("_Z"), "");           // not a valid mangled name
}

TEST(ActivityPaths, EveryPercentPBecomesTheProcessId) {
    EXPECT_EQ(activity::expand_pid("/tmp/activity-%p.json", 42), "/tmp/activity-42.json");
    EXPECT_EQ(activity::expand_pid("%p/%p", 7), "7/7");
    EXPECT_EQ(activity::expand_pid("plain.json", 7), "plain.json");
    EXPECT_EQ(activity::expand_pid("ends-with-%", 7), "ends-with-%");
}

}  // namespace
}  // namespace optiml::profile
