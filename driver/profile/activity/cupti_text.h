// How liboptiml-activity.so words a failed CUPTI call in its files: "cuptiSubscribe failed:
// <CUPTI's text> (<code>)". Internal to the library.
#pragma once

#include <cupti.h>

#include <string>

namespace optiml::profile::activity {

inline std::string describe(const char* call, CUptiResult result) {
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == nullptr) {
        text = "unknown CUPTI error";
    }
    return std::string(call) + " failed: " + text + " (" +
           std::to_string(static_cast<int>(result)) + ")";
}

}  // namespace optiml::profile::activity
