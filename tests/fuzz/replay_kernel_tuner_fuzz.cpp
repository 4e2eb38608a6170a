// `--replay` of a Kernel Tuner cache file (driver/search/kernel_tuner_formats.cpp), through
// search::read_recording as the commands call it (replay_fuzz.h says what is checked). Seeds: the
// readers' hand-written fixtures, a cache file made of the first rows of the H200 saxpy manifest
// in tests/data/h200/spaces, one with boolean, float and string values; and OptiML's own
// recording format, which the same function reads.
#include "replay_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return optiml::fuzz::fuzz_recording(data, size);
}
