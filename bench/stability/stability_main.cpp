// How repeatable OptiML's measurements are, and what one evaluation costs.
//   optiml-bench-stability <spec.json> [name=value ...] [--repeat N] [--cold-cache flush|rotate]
// Evaluates one configuration of the spec (the given parameter values over the defaults) in N
// separate evaluations, each a full verify-and-time request to the worker, exactly as the tuner
// makes them, and prints the medians, their max/min ratio, and the compile / verify / time split.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "driver/compile/nvrtc_compiler.h"
#include "driver/measure/worker_client.h"
#include "driver/search/search.h"
#include "driver/spec/spec.h"
#include "driver/tune/candidate_evaluator.h"

using namespace optiml;

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

std::string write_image(const std::filesystem::path& dir, const std::string& name,
                        const std::string& bytes) {
    const auto path = dir / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: %s <spec.json> [name=value ...] [--repeat N] [--cold-cache "
                     "flush|rotate]\n",
                     argv[0]);
        return 2;
    }
    const spec::Spec spec = spec::load_spec(argv[1]);
    search::Config config = spec.default_config();
    int repeat = 10;
    measure::TimingSpec timing_spec = measure::make_timing(spec);  // the spec's cold-cache method
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            repeat = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--cold-cache") == 0 && i + 1 < argc) {
            timing_spec.rotate_inputs = std::strcmp(argv[++i], "rotate") == 0;
            timing_spec.flush_l2 = !timing_spec.rotate_inputs;
        } else if (const char* eq = std::strchr(argv[i], '=')) {
            config[std::string(argv[i], static_cast<std::size_t>(eq - argv[i]))] =
                std::atoll(eq + 1);
        }
    }
    const auto probe = measure::probe_devices(measure::default_worker_path());
    if (!probe.problem.empty()) {
        std::printf("error: %s\n", probe.problem.c_str());
        return 1;
    }
    const auto& devices = probe.devices;
    if (devices.empty()) {
        std::printf("no CUDA GPU (%s): nothing to measure\n", probe.note.c_str());
        return 77;
    }
    const int arch = devices[0].arch;
    const auto scratch = std::filesystem::temp_directory_path() / "optiml-stability";
    std::filesystem::create_directories(scratch);

    const auto original = compile::compile(
        identity::make_compile_request(spec, spec.default_config(), arch, compile::Output::Cubin));
    auto compile_start = std::chrono::steady_clock::now();
    const auto variant = compile::compile(
        identity::make_compile_request(spec, config, arch, compile::Output::Cubin));
    const double compile_ms = ms_since(compile_start);
    if (!original.ok || !variant.ok) {
        std::fprintf(stderr, "compile failed:\n%s%s", original.log.c_str(), variant.log.c_str());
        return 1;
    }
    measure::LaunchSpec original_launch = tune::make_launch(spec, spec.default_config());
    original_launch.symbol = original.lowered_name;
    original_launch.image_path = write_image(scratch, "original.cubin", original.binary);
    measure::LaunchSpec launch = tune::make_launch(spec, config);
    launch.symbol = variant.lowered_name;
    launch.image_path = write_image(scratch, "variant.cubin", variant.binary);

    measure::RemoteSession session(measure::default_worker_path(), devices[0].index,
                                   measure::make_problem(spec), original_launch);
    session.start();
    std::printf("## %s: %s on %s, %d separate evaluations\n\n", spec.name.c_str(),
                search::format_config(config).c_str(), devices[0].name.c_str(), repeat);
    std::printf(
        "| evaluation | median ms | 95%% CI ms | runs | verify ms | time ms | SM MHz | cold cache "
        "|\n|---|---|---|---|---|---|---|---|\n");
    double low = 1e30, high = 0, verify = 0, timing = 0;
    for (int i = 0; i < repeat; ++i) {
        const auto m = session.evaluate(launch, timing_spec, std::chrono::minutes(5));
        if (!m.ok) {
            std::printf("evaluation %d failed: %s: %s\n", i + 1, m.status.c_str(),
                        m.message.c_str());
            return 1;
        }
        std::printf("| %d | %.5f | %.5f-%.5f | %d | %.1f | %.1f | %u | %s (%d copies) |\n", i + 1,
                    m.median_ms, m.ci_low_ms, m.ci_high_ms, m.runs, m.verify_ms, m.timing_ms,
                    m.sm_clock_mhz, m.cold_cache.c_str(), m.input_copies);
        low = std::min(low, m.median_ms);
        high = std::max(high, m.median_ms);
        verify += m.verify_ms;
        timing += m.timing_ms;
    }
    std::printf("\nSTABILITY %s max/min of medians = %.4f\n", spec.name.c_str(), high / low);
    std::printf("OVERHEAD %s per evaluation: compile %.1f ms, verify %.1f ms, time %.1f ms\n",
                spec.name.c_str(), compile_ms, verify / repeat, timing / repeat);
    std::filesystem::remove_all(scratch);
    return 0;
}
