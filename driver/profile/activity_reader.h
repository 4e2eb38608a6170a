// Reads the kernel-launch records liboptiml-activity.so wrote (format in
// activity/activity_file.h) back into their structs.
#pragma once

#include <filesystem>
#include <string_view>

#include <nlohmann/json.hpp>

#include "driver/profile/activity/activity_file.h"

namespace optiml::profile {

// Throws ProfileError naming `source` and the field for anything missing, mistyped, or from
// another format version.
activity::ActivityFile activity_from_json(const nlohmann::json& json, std::string_view source);

// Throws ProfileError naming the file when it cannot be read or parsed.
activity::ActivityFile read_activity_file(const std::filesystem::path& file);

}  // namespace optiml::profile
