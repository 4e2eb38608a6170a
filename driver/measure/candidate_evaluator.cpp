#include "driver/measure/candidate_evaluator.h"

#include "driver/compile/read_file.h"

#include <fstream>
#include <stdexcept>

namespace optiml::measure {
namespace fs = std::filesystem;

namespace {

search::Outcome to_outcome(const Measurement& m) {
    return {m.ok, m.status, m.message, m.median_ms, m.min_ms, m.max_ms, m.runs};
}

search::Outcome failure(std::string status, std::string message) {
    search::Outcome outcome;
    outcome.status = std::move(status);
    outcome.message = std::move(message);
    return outcome;
}

}  // namespace

compile::CompileRequest make_compile_request(const spec::Spec& spec, const search::Config& config,
                                             int arch, compile::Output output) {
    compile::CompileRequest request;
    request.source_text = compile::read_file(spec.source);
    request.source_name = spec.source.filename().string();
    request.name_expression = spec.kernel;
    request.options = spec.nvrtc_options;
    request.include_dirs.push_back(spec.source.parent_path());
    for (const auto& dir : spec.include_dirs) request.include_dirs.push_back(spec.file.parent_path() / dir);
    request.defines = config;
    request.arch = arch;
    request.output = output;
    return request;
}

LaunchSpec make_launch(const spec::Spec& spec, const search::Config& config) {
    const expr::Env env = spec.environment(config);
    LaunchSpec launch;
    for (std::size_t d = 0; d < 3; ++d) {
        const std::int64_t grid = spec.launch.grid[d].eval(env);
        const std::int64_t block = spec.launch.block[d].eval(env);
        if (grid < 1 || block < 1)
            throw std::invalid_argument("launch geometry has a dimension below 1 (grid " +
                                        std::to_string(grid) + ", block " + std::to_string(block) + ")");
        launch.grid[d] = static_cast<unsigned>(grid);
        launch.block[d] = static_cast<unsigned>(block);
    }
    const std::int64_t shared = spec.launch.shared_memory_bytes.eval(env);
    if (shared < 0) throw std::invalid_argument("negative dynamic shared memory");
    launch.shared_memory_bytes = static_cast<unsigned>(shared);
    return launch;
}

CandidateEvaluator::CandidateEvaluator(const spec::Spec& spec, int arch, RemoteSession& session,
                                       fs::path scratch_dir, TimingSpec timing)
    : spec_(spec), arch_(arch), session_(session), scratch_(std::move(scratch_dir)), timing_(timing) {}

std::vector<search::Outcome> CandidateEvaluator::evaluate(const std::vector<search::Config>& batch) {
    std::vector<compile::CompileRequest> requests;
    for (const auto& config : batch)
        requests.push_back(make_compile_request(spec_, config, arch_, compile::Output::Cubin));
    std::vector<compile::CompileResult> results = compile::compile_all(requests);

    std::vector<search::Outcome> outcomes;
    for (std::size_t i = 0; i < batch.size(); ++i) {
        const compile::CompileResult& result = compiled_[batch[i]] = std::move(results[i]);
        if (!result.ok) {
            outcomes.push_back(failure("compile_error", result.log));
            continue;
        }
        LaunchSpec launch;
        try {
            launch = make_launch(spec_, batch[i]);
        } catch (const std::exception& e) {
            outcomes.push_back(failure("launch_error", e.what()));
            continue;
        }
        launch.symbol = result.lowered_name;
        launch.image_path = (scratch_ / ("candidate-" + std::to_string(images_written_++) + ".cubin")).string();
        std::ofstream(launch.image_path, std::ios::binary) << result.binary;
        // A hang is cut off long before it could stall a build for good.
        outcomes.push_back(to_outcome(session_.evaluate(launch, timing_, std::chrono::seconds(120))));
        fs::remove(launch.image_path);
    }
    return outcomes;
}

const compile::CompileResult* CandidateEvaluator::compiled(const search::Config& config) const {
    auto it = compiled_.find(config);
    return it == compiled_.end() ? nullptr : &it->second;
}

}  // namespace optiml::measure
