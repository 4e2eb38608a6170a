#include "driver/tune/side_by_side.h"

#include <fstream>
#include <random>
#include <stdexcept>

#include "driver/search/candidate_json.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/compare_build.h"
#include "driver/tune/scratch_dir.h"

namespace optiml::tune {
namespace fs = std::filesystem;
namespace {

// The entry's CUBIN written to `image`, at the entry's parameters' launch geometry.
measure::LaunchSpec entry_launch(const spec::Spec& spec, const cache::Entry& entry,
                                 const fs::path& image) {
    const std::string name = entry.manifest.at("files").value("cubin", "");
    const auto cubin = entry.files.find(name);
    if (cubin == entry.files.end())
        throw std::runtime_error("entry " + entry.key.substr(0, 12) + " holds no CUBIN");
    {
        std::ofstream out(image, std::ios::binary);
        out << cubin->second;
        if (!out) throw std::runtime_error("cannot write " + image.string());
    }
    measure::LaunchSpec launch =
        make_launch(spec, search::read_candidate(entry.manifest).parameters);
    launch.image_path = image.string();
    launch.symbol = entry.manifest.value("lowered_name", "");
    return launch;
}

}  // namespace

measure::Measurement time_side_by_side(const spec::Spec& spec, const measure::DeviceInfo& device,
                                       const cache::Entry& challenger,
                                       const cache::Entry& incumbent,
                                       const std::string& host_compiler) {
    ScratchDir scratch;
    if (scratch.path().empty()) throw std::runtime_error("cannot create a scratch directory");
    const auto original = compile::compile(
        make_compile_request(spec, spec.default_config(), device.arch, compile::Output::Cubin));
    if (!original.ok)
        throw std::runtime_error("the original kernel does not compile: " + original.log);
    const measure::LaunchSpec original_launch =
        write_launch(spec, spec.default_config(), original, scratch.path() / "original.cubin");
    measure::Problem problem = measure::make_problem(spec);
    problem.seed_base = std::random_device{}() % 1000000;  // inputs neither binary has seen
    build_host_functions(spec, host_compiler, scratch.path() / "host_functions", problem);
    measure::RemoteSession session(measure::default_worker_path(), device.index, problem,
                                   original_launch);
    session.start();
    const measure::LaunchSpec challenger_launch =
        entry_launch(spec, challenger, scratch.path() / "challenger.cubin");
    const measure::LaunchSpec incumbent_launch =
        entry_launch(spec, incumbent, scratch.path() / "incumbent.cubin");
    // As generous as the evaluator's first-candidate limit: nothing is known of the times yet.
    return session.evaluate(challenger_launch, measure::make_timing(spec), std::chrono::minutes(5),
                            &incumbent_launch);
}

}  // namespace optiml::tune
