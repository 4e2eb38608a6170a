#include "driver/tune/device_selection.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace optiml::tune {

std::optional<std::vector<int>> parse_device_list(const std::string& text) {
    const auto blank = [](unsigned char c) { return std::isspace(c) != 0; };
    if (std::all_of(text.begin(), text.end(), blank)) return std::nullopt;
    std::vector<int> devices;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
        std::erase_if(item, blank);
        if (item.empty() || item.size() > 6 || !std::all_of(item.begin(), item.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c)) != 0;
            }))
            throw DeviceListError("OPTIML_DEVICES='" + text + "': '" + item +
                                  "' is not a device index; give the CUDA device indices to tune "
                                  "on, separated by commas (e.g. OPTIML_DEVICES=0,1; `optiml "
                                  "devices` lists them)");
        const int device = std::stoi(item);
        if (std::find(devices.begin(), devices.end(), device) == devices.end())
            devices.push_back(device);
        if (comma == std::string::npos) return devices;
        start = comma + 1;
    }
}

std::optional<std::vector<int>> device_list_from_environment() {
    const char* text = std::getenv("OPTIML_DEVICES");
    return text ? parse_device_list(text) : std::nullopt;
}

std::vector<measure::DeviceInfo> allowed_devices(const std::vector<measure::DeviceInfo>& probed,
                                                 const std::optional<std::vector<int>>& allowed) {
    std::vector<measure::DeviceInfo> devices;
    for (const auto& device : probed)
        if (!allowed || std::find(allowed->begin(), allowed->end(), device.index) != allowed->end())
            devices.push_back(device);
    return devices;
}

std::vector<measure::DeviceInfo> verifying_peers(const measure::DeviceInfo& primary,
                                                 const std::vector<measure::DeviceInfo>& devices) {
    std::vector<measure::DeviceInfo> peers;
    for (const auto& device : devices)
        if (device.index != primary.index && device.name == primary.name &&
            device.arch == primary.arch)
            peers.push_back(device);
    return peers;
}

}  // namespace optiml::tune
