// A spec from a captured launch (`optiml capture`): the skeleton `optiml init` writes for the
// kernel (spec_skeleton.h), with what the launch showed written in: each scalar's value, each
// pointer's element count from the bytes between it and the end of its allocation (named by an
// integer scalar, or a product of two, when one holds that count), the launch geometry mapped to
// the kernel's block_size_x/y/z or to the integer template argument it equals (the grid then
// follows the block size), the template arguments of the instantiation launched, the dynamic
// shared memory, with snapshots a "file" fill of every input from the data it held before
// the launch, and, where the program launched the kernel at several sizes (its integer scalars'
// values in the launch's shapes), those sizes as the spec's problems.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "driver/profile/activity/capture_file.h"
#include "driver/spec/spec.h"

namespace optiml::init {

// A snapshot to store beside the spec: the first `count` elements of the captured file `from`.
struct SnapshotUse {
    std::string argument;
    std::string from;  // as the capture file names it
    std::string to;    // relative to the spec's folder, as the fill names it
    spec::ElementType type = spec::ElementType::Float32;
    std::uint64_t count = 0;
};

struct CapturedSpec {
    std::string text;                    // the spec
    std::vector<SnapshotUse> snapshots;  // the fills' files, to write before the spec is used
    std::vector<std::string> notes;      // what the launch could not answer, for the user
};

// `origin` says where the launch came from (the program's command line) in the spec's header;
// `data_folder` is the folder (relative to the spec's) its snapshot files go to. Throws
// source::RewriteError when `kernel` is not defined in `source`, and CaptureMismatch when the
// launch has another number of parameters than the kernel's definition (not the same kernel).
CapturedSpec captured_spec(std::string_view source, const std::string& source_path,
                           const std::string& kernel,
                           const profile::activity::CapturedLaunch& launch,
                           const std::string& origin, const std::string& data_folder);

class CaptureMismatch : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace optiml::init
