// Reading recorded spaces from files: OptiML's own recording format and cache-entry manifests
// (their `trace`), Kernel Tuner's cache JSON files and T4 results files (docs/replay.md).
#pragma once

#include <filesystem>
#include <stdexcept>

#include "driver/search/recording.h"

namespace optiml::search {

// "<file>: <field>: <what is wrong>; expected <what>".
class RecordingError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Detects the format from the file's contents; throws RecordingError.
Recording read_recording(const std::filesystem::path& file);

}  // namespace optiml::search
