// A worker session opened the one way every command that measures opens it (tuning, the
// reference check, retune's side-by-side timing, `optiml profile --spec`): a private scratch
// folder; the original kernel compiled at the spec's defaults (the compiler choose_compiler picks)
// and written there; the problem with the spec's comparison function and input generators built;
// the extra sizes of check.extra_sizes set up; the worker started with the kernel every variant
// is verified against (the original, unless another reference is given).
#pragma once

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "driver/base/scratch_dir.h"
#include "driver/compile/nvrtc_compiler.h"
#include "driver/measure/worker_client.h"
#include "driver/spec/spec.h"

namespace optiml::tune {

class SessionError : public std::runtime_error {
  public:
    enum class Step { Scratch, Original, Worker };
    SessionError(Step failed, const std::string& message, std::string log = {})
        : std::runtime_error(message), step(failed), compile_log(std::move(log)) {}
    Step step;
    std::string compile_log;  // Step::Original: the compiler's messages
};

struct SessionSetup {
    std::string host_compiler = "c++";  // builds the spec's comparison function and generators
    // True: a seed base no variant has seen (a variant cannot be fitted to its inputs). False:
    // seed base 0, the same inputs on every run, so an outside profiler sees the same data.
    bool fresh_inputs = true;
    bool extra_sizes = true;  // verify at each of check.extra_sizes as well
    // The kernel whose outputs every variant's are compared with; null: the original.
    const compile::CompileResult* reference = nullptr;
};

class MeasuringSession {
  public:
    // Throws SessionError naming the step that failed, CompareBuildError (compare_build.h) when
    // the spec's comparison function or a generator does not compile.
    MeasuringSession(const spec::Spec& spec, const measure::DeviceInfo& device,
                     const SessionSetup& setup = {});

    const std::filesystem::path& scratch() const { return scratch_.path(); }
    const compile::CompileResult& original() const { return original_; }
    // The original at the spec's defaults, its image written under scratch().
    const measure::LaunchSpec& original_launch() const { return original_launch_; }
    // The worker's problem at the spec's size: seeds, comparison function, generators. Peers that
    // verify beside the worker are opened with it.
    const measure::Problem& problem() const { return problem_; }
    // What the worker compares with: original_launch() unless SessionSetup::reference was given.
    const measure::LaunchSpec& reference_launch() const { return reference_launch_; }
    measure::RemoteSession& worker() { return *worker_; }

  private:
    base::ScratchDir scratch_;
    compile::CompileResult original_;
    measure::LaunchSpec original_launch_;
    measure::LaunchSpec reference_launch_;
    measure::Problem problem_;
    std::unique_ptr<measure::RemoteSession> worker_;
};

}  // namespace optiml::tune
