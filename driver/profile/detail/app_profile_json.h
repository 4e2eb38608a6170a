// The JSON form of a whole-program profile (`optiml profile --json <file> -- ./app`), documented
// field by field in docs/cli.md.
#pragma once

#include <nlohmann/json.hpp>

#include "driver/profile/app_profile.h"

namespace optiml::profile {

// Bumped whenever a field changes meaning or disappears; adding a field does not bump it.
inline constexpr int kAppProfileSchema = 1;

nlohmann::json to_json(const AppProfile& profile);

}  // namespace optiml::profile
