#include "driver/tune/measuring_session.h"

#include <random>

#include "driver/identity/kernel_compile.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/compare_build.h"

namespace optiml::tune {

MeasuringSession::MeasuringSession(const spec::Spec& spec, const measure::DeviceInfo& device,
                                   const SessionSetup& setup) {
    if (scratch_.path().empty())
        throw SessionError(SessionError::Step::Scratch, "cannot create a scratch directory");
    // The spec's defaults are the one original: tuning, verification and the launcher's nvcc
    // fallback all use them, whatever #ifndef defaults the source has.
    const search::Config defaults = spec.default_config();
    original_ = compile::compile(
        identity::make_compile_request(spec, defaults, device.arch, compile::Output::Cubin));
    if (!original_.ok)
        throw SessionError(SessionError::Step::Original, "the original kernel does not compile",
                           original_.log);
    original_launch_ =
        write_launch(spec, search::Candidate(defaults), original_, scratch() / "original.cubin");
    reference_launch_ = setup.reference
                            ? write_launch(spec, search::Candidate(defaults), *setup.reference,
                                           scratch() / "reference.cubin")
                            : original_launch_;

    problem_ = measure::make_problem(spec);
    if (setup.fresh_inputs) problem_.seed_base = std::random_device{}() % 1000000;
    build_host_functions(spec, setup.host_compiler, scratch() / "host_functions", problem_);
    worker_ = std::make_unique<measure::RemoteSession>(measure::default_worker_path(), device.index,
                                                       problem_, reference_launch_);
    if (setup.extra_sizes) add_extra_sizes(spec, problem_, reference_launch_, *worker_);
    try {
        worker_->start();
    } catch (const std::exception& e) {
        throw SessionError(SessionError::Step::Worker, e.what());
    }
}

}  // namespace optiml::tune
