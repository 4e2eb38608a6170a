// The one error type of driver/profile: a profiled program that cannot be run or measured, or a
// record file that cannot be read. Messages name the cause and the fix.
#pragma once

#include <stdexcept>

namespace optiml::profile {

class ProfileError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace optiml::profile
