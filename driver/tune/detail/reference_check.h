// Verifying a spec's kernel against a reference implementation (`optiml synth`, `optiml tune
// --reference`): the reference runs in the original kernel's place, and the spec's kernel at its
// default parameters is verified against it by the worker like any variant (poisoned outputs,
// trials on fresh inputs, read-only inputs unchanged, determinism, the spec's tolerances or
// comparison function, every extra size). docs/llm.md, "Synthesis", says what a reference may be.
#pragma once

#include <filesystem>
#include <string>

#include "driver/compile/compile_request.h"
#include "driver/measure/worker_client.h"
#include "driver/spec/spec.h"

namespace optiml::tune {

struct Reference {
    std::filesystem::path file;
    std::string text;
    std::string entry;       // the kernel or function to run
    bool is_kernel = false;  // an existing __global__ kernel; else a C++ function
};

// Reads `file` and finds what to run: `entry` when given, else the file's one __global__ function
// (an existing kernel) or, with none, its one function returning void (a C++ function). Throws
// std::runtime_error naming the file and --reference-entry when there is none or several.
Reference read_reference(const std::filesystem::path& file, const std::string& entry = "");

// The reference compiled for `spec`'s arguments: a kernel as it is (at the spec's default
// parameters, with the spec's options); a C++ function inside a kernel `optiml_reference` whose
// first thread calls it with the spec's arguments in their order, NVRTC's -default-device making
// the function device code.
compile::CompileRequest reference_compile_request(const spec::Spec& spec,
                                                  const Reference& reference, int arch);

struct ReferenceVerdict {
    bool ok = false;
    // "ok"; "reference_error" (the reference does not compile or run), "compile_error" (the
    // spec's kernel does not compile), or the worker's status ("mismatch", "unwritten", ...).
    std::string status;
    std::string message;
    std::string describe() const { return status + (message.empty() ? "" : ": " + message); }
};

// Runs the check on `device`. `host_compiler` compiles the spec's comparison function, if any.
ReferenceVerdict verify_against_reference(const spec::Spec& spec, const Reference& reference,
                                          const measure::DeviceInfo& device,
                                          const std::string& host_compiler);

}  // namespace optiml::tune
