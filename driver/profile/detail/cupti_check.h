// CUPTI error handling shared by the worker's collectors.
#pragma once

#include <stdexcept>
#include <string>

#include <cupti_result.h>

namespace optiml::profile {

// CUPTI could not profile; `insufficient_rights` when the GPU refused for lack of rights
// (RmProfilingAdminOnly), which the report states rather than failing the evaluation.
class CuptiError : public std::runtime_error {
  public:
    CuptiError(const std::string& what, CUptiResult result);
    CUptiResult result;
    bool insufficient_rights() const;
};

void cupti_check(CUptiResult result, const char* what);

}  // namespace optiml::profile
