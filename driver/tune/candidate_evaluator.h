// The search's Evaluator on a real GPU. On one GPU it streams: every candidate is compiled as its
// own job on every core (compile_queue.h), and goes to the worker as soon as its compile ends,
// while the next ones compile; the worker verifies and times one after another, each challenger
// interleaved with the incumbent (the fastest correct variant so far). A correct
// variant is then verified at every extra problem size of the spec (add_extra_sizes), and one
// reported more than 10x faster than the original is verified again on new inputs.
// With a VerifierPool (several GPUs of one model) it takes batches: each is first verified on all
// of them in parallel, at every problem size; the variants that pass are then timed one after
// another on the session's GPU as above, without verifying them again. The timing, the order and so
// the decisions are those of one GPU.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "driver/compile/compile_queue.h"
#include "driver/compile/image_cache.h"
#include "driver/compile/nvrtc_compiler.h"
#include "driver/identity/kernel_compile.h"
#include "driver/identity/kernel_key.h"
#include "driver/measure/protocol.h"
#include "driver/measure/verifier_pool.h"
#include "driver/measure/worker_client.h"
#include "driver/search/search.h"
#include "driver/spec/spec.h"
#include "driver/tune/device_only_source.h"
#include "driver/tune/source_variants.h"

namespace optiml::tune {

// The worker's vocabulary, which the evaluator speaks throughout.
using measure::LaunchSpec;
using measure::Measurement;
using measure::Problem;
using measure::RemoteSession;
using measure::TimingSpec;
using measure::VerifierPool;

// A compile request for a candidate: its parameters as defines, its exact text from `sources`
// (the original, or a derived one compiled as if it stood in the source's place), the spec's
// nvrtc_options and then the candidate's own. Throws std::out_of_range for a source id `sources`
// does not hold.
compile::CompileRequest make_compile_request(const spec::Spec& spec,
                                             const search::Candidate& candidate,
                                             const SourceVariants& sources, int arch,
                                             compile::Output output);

// Whether nvcc compiles the spec's variants from their device code alone (device_only_source.h):
// probed once for the original, then answered from memory.
DeviceOnlyPlan device_only_plan(const spec::Spec& spec, const SourceVariants& sources, int arch);

// Grid, block and dynamic shared memory of `config`, from the spec's expressions, at the spec's
// own problem size or at `size`.
// Throws expr::ExprError (e.g. division by zero) or std::invalid_argument (a dimension < 1).
LaunchSpec make_launch(const spec::Spec& spec, const search::Config& config,
                       const spec::ProblemSize* size = nullptr);
// The same for a candidate: its parameters, and its own grid where a rewrite changed it.
LaunchSpec make_launch(const spec::Spec& spec, const search::Candidate& candidate,
                       const spec::ProblemSize* size = nullptr);

// make_launch() for a compiled variant whose CUBIN is written to `image`: what the worker loads.
// Throws as make_launch() does.
LaunchSpec write_launch(const spec::Spec& spec, const search::Candidate& candidate,
                        const compile::CompileResult& compiled, const std::filesystem::path& image);

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

    std::vector<search::Outcome> evaluate(const std::vector<search::Candidate>& batch) override;

    // Streaming, on one GPU (without a verifier pool): enough in flight to keep every core
    // compiling and a compiled candidate waiting for the GPU.
    std::size_t streaming_depth() const override;
    void submit(const search::Candidate& candidate) override;
    std::optional<std::pair<search::Candidate, search::Outcome>> collect() override;
    std::size_t cancel_pending() override;
    bool discard() override;

    // Batches even on one GPU (as with a verifier pool): results then come in proposal order,
    // whatever order the compiles end in.
    void set_streaming(bool streaming) { streaming_ = streaming; }

    // Compiled images come from and go to `images` (may be null: always compile). Set before the
    // first evaluation.
    void set_image_cache(compile::ImageCache* images) { images_ = images; }

    // The CUBIN that was timed for a candidate (for the cache entry), if it compiled.
    const compile::CompileResult* compiled(const search::Candidate& candidate) const;

    // The derived sources candidates may name; add one before submitting a candidate of it.
    SourceVariants& sources() { return sources_; }
    const SourceVariants& sources() const { return sources_; }

    // Re-verification seeds start here (past every trial seed of the session).
    void set_reverify_seed(std::uint64_t seed) { next_reverify_seed_ = seed; }

    // Verify each batch on these GPUs (the session's among them) before timing it on the
    // session's. Null (the default): everything on the session's GPU. Each outcome's details
    // then say which device verified it ("verified_on_device").
    void set_verifier_pool(VerifierPool* pool) { pool_ = pool; }

  private:
    CandidateEvaluator(const spec::Spec& spec, int arch, RemoteSession& session,
                       std::filesystem::path scratch_dir, TimingSpec timing,
                       const identity::KernelSources& kernel);
    using Compiled = std::vector<const compile::CompileResult*>;
    compile::CompileQueue& queue();
    search::Candidate claim(compile::CompileQueue::Done& finished);
    compile::CompileRequest request_for(const search::Candidate& candidate) const;
    std::vector<search::Outcome> evaluate_in_turn(const std::vector<search::Candidate>& batch,
                                                  const Compiled& compiled);
    std::vector<search::Outcome> evaluate_spread(const std::vector<search::Candidate>& batch,
                                                 const Compiled& compiled);
    search::Outcome evaluate_one(const search::Candidate& candidate,
                                 const compile::CompileResult& compiled);
    // The launch of `candidate` with its CUBIN written to the scratch folder; or why it has none.
    std::optional<search::Outcome> write_image(const search::Candidate& candidate,
                                               const compile::CompileResult& compiled,
                                               LaunchSpec& launch);
    // After timing: a claim over 10x verified again, the incumbent replaced by a winner, the
    // image of a variant that did not win removed.
    search::Outcome settle(const LaunchSpec& launch, const Measurement& timed,
                           search::Outcome outcome);
    std::chrono::milliseconds hang_timeout() const;
    // A variant whose CUBIN, kernel and launch geometry (its grid expressions too) are those of
    // one measured before runs the same code: it takes that measurement (`same_image_as`)
    // instead of a turn on the GPU. Options and rewrites that change nothing
    // (--extra-device-vectorization on most kernels) then cost no evaluation time, and cannot win
    // on noise.
    // `identity`: image_identity() of the variant's CUBIN, candidate and launch, computed once.
    std::optional<search::Outcome> measured_before(const std::string& identity) const;
    void remember_measured(const std::string& identity, const search::Candidate& candidate,
                           const search::Outcome& outcome);
    // Verifies `candidate` at every extra problem size on `session`: nullopt when it passes at all
    // (their verification time added to `verify_ms`), else the failure. Safe to call from
    // several threads at once, each with its own session.
    std::optional<search::Outcome> verify_extra_sizes(RemoteSession& session,
                                                      const search::Candidate& candidate,
                                                      const LaunchSpec& launch,
                                                      std::chrono::milliseconds timeout,
                                                      double& verify_ms) const;

    const spec::Spec& spec_;
    int arch_;
    RemoteSession& session_;
    VerifierPool* pool_ = nullptr;
    bool streaming_ = true;
    std::filesystem::path scratch_;
    TimingSpec timing_;
    SourceVariants sources_;
    std::map<search::Candidate, compile::CompileResult> compiled_;
    compile::ImageCache* images_ = nullptr;
    std::string headers_digest_;  // the local headers the kernel includes, for image keys
    std::unique_ptr<compile::CompileQueue> queue_;
    std::map<std::size_t, search::Candidate> submitted_;  // ticket -> candidate, while in flight
    std::size_t images_written_ = 0;
    // Correct variants measured so far, by image_identity(): which one, and its outcome.
    std::map<std::string, std::pair<search::Candidate, search::Outcome>> measured_;
    // The fastest correct variant so far: every challenger is timed beside it.
    std::optional<LaunchSpec> incumbent_;
    double original_ms_ = 0.0;  // the first correct result: the original configuration
    std::uint64_t next_reverify_seed_ = 1000003;
};

}  // namespace optiml::tune
