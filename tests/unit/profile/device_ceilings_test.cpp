// The device-ceilings cache: a calibration measured once is read back instead of measured again;
// a damaged or failed one is measured again, and a failure to measure becomes a note, not an
// exception. No GPU here: measuring always fails, which is what the fallback tests need.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "driver/profile/device_ceilings.h"

namespace optiml::profile {
namespace {
namespace fs = std::filesystem;

class DeviceCeilingsCache : public ::testing::Test {
  protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() /
                ("optiml-ceilings-" +
                 std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        fs::create_directories(root_);
        device_.name = "NVIDIA H200";
        device_.arch = 90;
        device_.driver = 13000;
        setenv("OPTIML_WORKER", (root_ / "no-such-worker").c_str(), 1);  // measuring fails
    }
    void TearDown() override {
        unsetenv("OPTIML_WORKER");
        fs::remove_all(root_);
    }
    // Writes `calibration` where device_ceilings() looks for this device's cached ceilings.
    void cache(const Calibration& calibration) const {
        fs::create_directories(root_ / "devices");
        std::ofstream(ceilings_path(root_, device_)) << nlohmann::json(calibration).dump();
    }
    // True when device_ceilings() did not serve the cache: it measured, which fails here (no
    // worker) and leaves one note.
    bool measured_again(const measure::DeviceInfo& device) const {
        std::vector<std::string> notes;
        return !device_ceilings(device, root_, root_, notes).has_value() && notes.size() == 1;
    }
    fs::path root_;
    measure::DeviceInfo device_;
};

TEST_F(DeviceCeilingsCache, PathNamesTheDeviceAndTheDriver) {
    EXPECT_EQ(ceilings_path(root_, device_), root_ / "devices" / "NVIDIA-H200-driver13000.json");
}

TEST_F(DeviceCeilingsCache, ACachedCalibrationIsUsedWithoutMeasuring) {
    Calibration cached;
    cached.ok = true;
    cached.device = "NVIDIA H200";
    cached.dram_bytes_per_s = 3.9e12;
    cached.dram_by_pattern = {{"copy", 3.8e12}, {"read", 3.9e12}};
    cached.flops_per_s = {{"fp32", 6.4e13}};
    cache(cached);
    std::vector<std::string> notes;
    const auto ceilings = device_ceilings(device_, root_, root_, notes);
    ASSERT_TRUE(ceilings.has_value());
    EXPECT_DOUBLE_EQ(ceilings->dram_bytes_per_s, 3.9e12);
    EXPECT_DOUBLE_EQ(ceilings->flops_per_s.at("fp32"), 6.4e13);
    EXPECT_TRUE(notes.empty());
}

TEST_F(DeviceCeilingsCache, ADamagedCacheIsMeasuredAgainAndAFailureIsANote) {
    fs::create_directories(root_ / "devices");
    std::ofstream(ceilings_path(root_, device_)) << "{ not json";
    std::vector<std::string> notes;
    EXPECT_FALSE(device_ceilings(device_, root_, root_, notes).has_value());
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("calibrating the device failed"), std::string::npos) << notes[0];
}

// A calibration cached before the bandwidth patterns existed (copy rate only) is measured again.
TEST_F(DeviceCeilingsCache, ACopyOnlyCalibrationIsMeasuredAgain) {
    Calibration cached;
    cached.ok = true;
    cached.dram_bytes_per_s = 3.9e12;
    cache(cached);
    EXPECT_TRUE(measured_again(device_));
}

TEST_F(DeviceCeilingsCache, AnotherDriverIsNotServedAnOldCalibration) {
    Calibration cached;
    cached.ok = true;
    cached.dram_bytes_per_s = 3.9e12;
    cached.dram_by_pattern = {{"copy", 3.9e12}};
    cache(cached);
    measure::DeviceInfo newer = device_;
    newer.driver = 13010;
    EXPECT_TRUE(measured_again(newer));
    EXPECT_FALSE(measured_again(device_));  // while its own driver is still served from it
}

}  // namespace
}  // namespace optiml::profile
