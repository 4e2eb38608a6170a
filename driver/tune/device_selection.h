// Which GPUs of this machine a tuning uses: the one it times on (the primary) and every other GPU
// of the same model, which verifies candidates beside it (measure/verifier_pool.h).
// $OPTIML_DEVICES ("0,1") restricts them; unset, every GPU may take part.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver/measure/worker_client.h"

namespace optiml::tune {

class DeviceListError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The device indices in `text` ("0,1", spaces allowed), in order, without repeats; nullopt when
// `text` is empty (no restriction). Throws DeviceListError naming OPTIML_DEVICES and the fix.
std::optional<std::vector<int>> parse_device_list(const std::string& text);

// parse_device_list of $OPTIML_DEVICES (nullopt when unset).
std::optional<std::vector<int>> device_list_from_environment();

// The devices of `probed` that `allowed` lists (all when nullopt), in probed order.
std::vector<measure::DeviceInfo> allowed_devices(const std::vector<measure::DeviceInfo>& probed,
                                                 const std::optional<std::vector<int>>& allowed);

// The devices of `devices` that verify beside `primary`: the same name and architecture (the same
// model, so verdicts do not depend on which one ran), `primary` itself left out.
std::vector<measure::DeviceInfo> verifying_peers(const measure::DeviceInfo& primary,
                                                 const std::vector<measure::DeviceInfo>& devices);

}  // namespace optiml::tune
