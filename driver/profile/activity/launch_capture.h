// The capture half of liboptiml-activity.so (`optiml capture`): subscribed to the CUDA driver's and
// runtime's kernel launches through CUPTI's callback API, it records the first launch of each
// kernel (capture_file.h) and writes the records when the program exits. Internal to the library.
#pragma once

namespace optiml::profile::activity {

// Starts capturing when $OPTIML_CAPTURE_OUTPUT is set; otherwise does nothing.
void start_capture();

}  // namespace optiml::profile::activity
