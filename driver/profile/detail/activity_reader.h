// Reads the files liboptiml-activity.so wrote back into their structs: the kernel-launch records
// (activity/activity_file.h) and the captured launches (activity/capture_file.h).
#pragma once

#include <filesystem>
#include <string_view>

#include <nlohmann/json.hpp>

#include "driver/profile/activity/activity_file.h"
#include "driver/profile/activity/capture_file.h"

namespace optiml::profile {

// Throws ProfileError naming `source` and the field for anything missing, mistyped, or from
// another format version.
activity::ActivityFile activity_from_json(const nlohmann::json& json, std::string_view source);

// Throws ProfileError naming the file when it cannot be read or parsed.
activity::ActivityFile read_activity_file(const std::filesystem::path& file);

// The same for a capture file: every field checked, a parameter's `bytes` as many hex pairs as its
// `size`, an allocation's `offset` within its `size`.
activity::CaptureFile capture_from_json(const nlohmann::json& json, std::string_view source);
activity::CaptureFile read_capture_file(const std::filesystem::path& file);

}  // namespace optiml::profile
