// What the worker sends back survives the JSON line between the processes unchanged.
#include <gtest/gtest.h>

#include "driver/profile/profile_protocol.h"

namespace optiml::profile {
namespace {

TEST(ProfileProtocol, ResultRoundTrips) {
    ProfileResult r;
    r.ok = true;
    r.counters = {{"dram__bytes_read.sum", 1.5e9}};
    r.unavailable = {"made__up.sum"};
    r.counters_permitted = false;
    r.counters_note = "no rights";
    r.passes = 11;
    r.counters_ms = 12.5;
    r.function.registers_per_thread = 40;
    r.function.dynamic_shared_bytes = 4096;
    r.pc_sampling_done = true;
    r.stalls = {{"k.cu", 12, "smsp__pcsamp_warps_issue_stalled_long_scoreboard", 77, false}};
    r.pc_total_samples = 100;
    r.pc_sampling_launches = 3;
    const ProfileResult back = nlohmann::json(r).get<ProfileResult>();
    EXPECT_TRUE(back.ok);
    EXPECT_EQ(back.counters, r.counters);
    EXPECT_EQ(back.unavailable, r.unavailable);
    EXPECT_FALSE(back.counters_permitted);
    EXPECT_EQ(back.passes, 11);
    EXPECT_EQ(back.function.registers_per_thread, 40);
    EXPECT_EQ(back.function.dynamic_shared_bytes, 4096u);
    ASSERT_EQ(back.stalls.size(), 1u);
    EXPECT_EQ(back.stalls[0].line, 12);
    EXPECT_EQ(back.stalls[0].samples, 77u);
    EXPECT_EQ(back.pc_sampling_launches, 3);
}

TEST(ProfileProtocol, RequestAndCalibrationRoundTrip) {
    ProfileRequest request;
    request.metrics = {"a.sum", "b.sum"};
    request.pc_sampling = false;
    const ProfileRequest back = nlohmann::json(request).get<ProfileRequest>();
    EXPECT_EQ(back.metrics, request.metrics);
    EXPECT_FALSE(back.pc_sampling);

    Calibration c;
    c.ok = true;
    c.dram_bytes_per_s = 3.9e12;
    c.dram_by_pattern = {{"copy", 3.8e12}, {"read", 3.9e12}};
    c.flops_per_s = {{"fp32", 6.4e13}};
    const Calibration cback = nlohmann::json(c).get<Calibration>();
    EXPECT_TRUE(cback.ok);
    EXPECT_DOUBLE_EQ(cback.dram_bytes_per_s, 3.9e12);
    EXPECT_EQ(cback.dram_by_pattern, c.dram_by_pattern);
    EXPECT_EQ(cback.flops_per_s, c.flops_per_s);
}

}  // namespace
}  // namespace optiml::profile
