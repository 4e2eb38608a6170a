// Which GPUs a tuning uses: $OPTIML_DEVICES parsed, the probed list restricted by it, and only
// GPUs of the primary's model verifying beside it.
#include "driver/tune/device_selection.h"

#include <gtest/gtest.h>

namespace optiml::tune {
namespace {

measure::DeviceInfo gpu(int index, const std::string& name = "NVIDIA H200", int arch = 90) {
    measure::DeviceInfo device;
    device.index = index;
    device.name = name;
    device.arch = arch;
    return device;
}

std::vector<int> indices(const std::vector<measure::DeviceInfo>& devices) {
    std::vector<int> out;
    for (const auto& device : devices) out.push_back(device.index);
    return out;
}

TEST(DeviceSelection, ADeviceListIsCommaSeparatedIndices) {
    EXPECT_EQ(parse_device_list("0,1"), (std::vector<int>{0, 1}));
    EXPECT_EQ(parse_device_list(" 2 , 0 "), (std::vector<int>{2, 0}));
    EXPECT_EQ(parse_device_list("1,1,3"), (std::vector<int>{1, 3}));
    EXPECT_EQ(parse_device_list(""), std::nullopt) << "empty: no restriction";
    EXPECT_EQ(parse_device_list("  "), std::nullopt);
}

TEST(DeviceSelection, AnythingElseIsAnErrorNamingTheVariableAndTheFix) {
    for (const char* bad : {"0;1", "0,,1", "-1", "gpu0", "1,", "99999999"}) {
        try {
            (void)parse_device_list(bad);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const DeviceListError& e) {
            const std::string message = e.what();
            EXPECT_EQ(message.rfind(std::string("OPTIML_DEVICES='") + bad + "'", 0), 0u) << message;
            EXPECT_NE(message.find("e.g. OPTIML_DEVICES=0,1"), std::string::npos) << message;
        }
    }
}

TEST(DeviceSelection, TheListRestrictsTheProbedDevicesInTheirOrder) {
    const std::vector<measure::DeviceInfo> probed{gpu(0), gpu(1), gpu(2)};
    EXPECT_EQ(indices(allowed_devices(probed, std::nullopt)), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(indices(allowed_devices(probed, std::vector<int>{2, 0})), (std::vector<int>{0, 2}));
    EXPECT_EQ(indices(allowed_devices(probed, std::vector<int>{7})), std::vector<int>{})
        << "a device this machine lacks is no device";
}

TEST(DeviceSelection, OnlyGpusOfThePrimarysModelVerifyBesideIt) {
    const std::vector<measure::DeviceInfo> devices{gpu(0), gpu(1), gpu(2, "NVIDIA A100", 80),
                                                   gpu(3, "NVIDIA H100 80GB HBM3"), gpu(4)};
    EXPECT_EQ(indices(verifying_peers(devices[1], devices)), (std::vector<int>{0, 4}));
    EXPECT_TRUE(verifying_peers(devices[2], devices).empty());
    EXPECT_TRUE(verifying_peers(gpu(0), {gpu(0)}).empty()) << "one GPU: the single-GPU path";
}

}  // namespace
}  // namespace optiml::tune
