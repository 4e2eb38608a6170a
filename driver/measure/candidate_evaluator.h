// The search's Evaluator on a real GPU: compiles a batch of configurations with NVRTC (in
// parallel), then verifies and times each in the worker, one after another on one device, each
// challenger interleaved with the incumbent (the fastest correct variant so far). A correct
// variant is then verified at every extra problem size of the spec (add_extra_sizes), and one
// reported more than 10x faster than the original is verified again on new inputs.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "driver/compile/nvrtc_compiler.h"
#include "driver/measure/protocol.h"
#include "driver/measure/worker_client.h"
#include "driver/search/search.h"
#include "driver/spec/spec.h"

namespace optiml::measure {

// A compile request for `config` (empty config with `original` = the kernel with no defines).
compile::CompileRequest make_compile_request(const spec::Spec& spec, const search::Config& config,
                                             int arch, compile::Output output);

// Grid, block and dynamic shared memory of `config`, from the spec's expressions, at the spec's
// own problem size or at `size`.
// Throws expr::ExprError (e.g. division by zero) or std::invalid_argument (a dimension < 1).
LaunchSpec make_launch(const spec::Spec& spec, const search::Config& config,
                       const spec::ProblemSize* size = nullptr);

// Sets up every check.extra_sizes entry of the spec on `session` (before its start()), in order,
// so that the evaluator finds extra size i at problem index i + 1. `main` is the problem at the
// spec's size (its seeds and comparison function carry over); `original` the original kernel's
// launch there (its image and symbol carry over).
void add_extra_sizes(const spec::Spec& spec, const Problem& main, const LaunchSpec& original,
                     RemoteSession& session);

class CandidateEvaluator : public search::Evaluator {
  public:
    CandidateEvaluator(const spec::Spec& spec, int arch, RemoteSession& session,
                       std::filesystem::path scratch_dir, TimingSpec timing);

    std::vector<search::Outcome> evaluate(const std::vector<search::Config>& batch) override;

    // The CUBIN that was timed for a configuration (for the cache entry), if it compiled.
    const compile::CompileResult* compiled(const search::Config& config) const;

    // Re-verification seeds start here (past every trial seed of the session).
    void set_reverify_seed(std::uint64_t seed) { next_reverify_seed_ = seed; }

  private:
    search::Outcome evaluate_one(const search::Config& config,
                                 const compile::CompileResult& compiled);
    std::chrono::milliseconds hang_timeout() const;
    // Verifies `config` at every extra problem size: false, with `outcome` replaced by the
    // failure, when it fails at one.
    bool verify_extra_sizes(const search::Config& config, const LaunchSpec& launch,
                            search::Outcome& outcome);

    const spec::Spec& spec_;
    int arch_;
    RemoteSession& session_;
    std::filesystem::path scratch_;
    TimingSpec timing_;
    std::map<search::Config, compile::CompileResult> compiled_;
    std::size_t images_written_ = 0;
    // The fastest correct variant so far: every challenger is timed beside it.
    std::optional<LaunchSpec> incumbent_;
    double original_ms_ = 0.0;  // the first correct result: the original configuration
    std::uint64_t next_reverify_seed_ = 1000003;
};

}  // namespace optiml::measure
