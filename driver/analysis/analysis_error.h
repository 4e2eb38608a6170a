// The one error type of driver/analysis: bad input from a collector or a stored report.
// Message format: "<where>: <field>: <what is wrong>; expected <what is expected>".
#pragma once

#include <stdexcept>

namespace optiml::analysis {

class AnalysisError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace optiml::analysis
