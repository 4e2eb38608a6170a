#include "driver/profile/detail/cupti_check.h"

#include <cupti.h>

namespace optiml::profile {
namespace {

std::string describe(const std::string& what, CUptiResult result) {
    const char* text = nullptr;
    cuptiGetResultString(result, &text);
    return what + ": " + (text ? text : "CUPTI error " + std::to_string(result));
}

}  // namespace

CuptiError::CuptiError(const std::string& what, CUptiResult r)
    : std::runtime_error(describe(what, r)), result(r) {}

bool CuptiError::insufficient_rights() const {
    return result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
           result == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED ||
           result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES;
}

void cupti_check(CUptiResult result, const char* what) {
    if (result != CUPTI_SUCCESS) throw CuptiError(what, result);
}

}  // namespace optiml::profile
