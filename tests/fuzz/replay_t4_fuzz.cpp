// `--replay` of T4 results (driver/search/kernel_tuner_formats.cpp), through
// search::read_recording as the commands call it (replay_fuzz.h says what is checked). Seeds: the
// readers' hand-written fixture, T4 results made of the first rows of the H200 saxpy manifest in
// tests/data/h200/spaces (measurements in us); and a cache entry manifest's trace (a few rows of
// that manifest), which the same function reads.
#include "replay_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return optiml::fuzz::fuzz_recording(data, size);
}
