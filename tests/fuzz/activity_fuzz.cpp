// The files liboptiml-activity.so writes and the driver reads back: the bytes are a record file,
// read as `optiml profile` reads a launch-record file and as `optiml capture` reads a capture
// file (driver/profile/detail/activity_reader.h: JSON text parsed as read_*_file parses it, then
// every field checked), and each captured launch of a kernel the sources below define becomes a
// spec as `optiml capture` writes it (driver/init/detail/captured_spec.h: argument values from
// the captured bytes, counts from the allocations, geometry mapped to the kernel's parameters).
// Allowed: ProfileError naming the file and the field, and CaptureMismatch for a launch whose
// parameters are not the kernel's; anything else is a finding.
#include "driver/init/detail/captured_spec.h"
#include "driver/profile/detail/activity_reader.h"
#include "driver/profile/profile_error.h"
#include "fuzz_support.h"

#include <string>
#include <string_view>

namespace {

using namespace optiml;

const std::string kRecordFile = "/records/capture-48213.json";

struct Kernel {
    const char* name;
    const char* source;
};

// A Kernel Tuner style kernel (its block is block_size_x), one that reads blockDim.x without a
// macro (its block becomes a launch-only parameter) and a template whose argument sizes the block.
constexpr Kernel kKernels[] = {
    {"axpy", R"(#ifndef block_size_x
#define block_size_x 256
#endif
__global__ void axpy(int n, float a, const float* __restrict__ x, float* y) {
    const int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
)"},
    {"scale", R"(__global__ void scale(long long n, float* y) {
    const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (i < n) y[i] *= 2.0f;
}
)"},
    {"tiled", R"(#ifndef block_size_y
#define block_size_y 16
#endif
template <int TILE>
__global__ void tiled(long long rows, const float* a, float* b) {
    b[blockIdx.x * TILE + threadIdx.x] = a[blockIdx.y * block_size_y + threadIdx.y];
}
)"},
};

void check_named(const profile::ProfileError& error) {
    const std::string message = error.what();
    // "<file>: <field>: <what>"
    if (message.rfind(kRecordFile + ": ", 0) != 0 ||
        message.find(": ", kRecordFile.size() + 2) == std::string::npos)
        fuzz::finding("a record file's error that does not name the file and the field: " +
                      message);
}

void write_specs(const profile::activity::CaptureFile& capture) {
    for (const profile::activity::CapturedLaunch& launch : capture.launches)
        for (const Kernel& kernel : kKernels) {
            if (launch.name.find(kernel.name) == std::string::npos &&
                launch.demangled_name.find(kernel.name) == std::string::npos)
                continue;
            try {
                init::captured_spec(kernel.source, std::string(kernel.name) + ".cu", kernel.name,
                                    launch, "./app --size 1048576", "captured");
            } catch (const init::CaptureMismatch&) {
            }
            break;
        }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // As read_activity_file and read_capture_file parse it (not JSON: their ProfileError).
    const nlohmann::json document =
        nlohmann::json::parse(fuzz::as_text(data, size), nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded()) return 0;
    try {
        profile::activity_from_json(document, kRecordFile);
    } catch (const profile::ProfileError& error) {
        check_named(error);
    }
    profile::activity::CaptureFile capture;
    try {
        capture = profile::capture_from_json(document, kRecordFile);
    } catch (const profile::ProfileError& error) {
        check_named(error);
        return 0;
    }
    write_specs(capture);
    return 0;
}
