// NVRTC compile throughput of OptiML's own compile path, without a GPU: every variant of a
// manifest's trace (the same ones a tuning compiled) goes through the CompileQueue on every
// core, with no image cache, as fast as it can. Prints one JSON line: variants, threads, wall
// seconds, compiles a minute, and how many failed.
//   optiml-bench-compile-throughput <spec> <manifest.json> [threads]
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "driver/base/read_file.h"
#include "driver/compile/compile_queue.h"
#include "driver/search/candidate_json.h"
#include "driver/spec/spec.h"
#include "driver/tune/candidate_evaluator.h"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s <spec> <manifest.json> [threads]\n", argv[0]);
        return 2;
    }
    try {
        using namespace optiml;
        const spec::Spec spec = spec::load_spec(argv[1]);
        const nlohmann::json manifest = nlohmann::json::parse(std::ifstream(argv[2]));
        const int arch = manifest.at("device").at("arch").get<int>();
        const unsigned threads = argc > 3 ? static_cast<unsigned>(std::stoul(argv[3])) : 0;
        const tune::SourceVariants sources(base::read_file(spec.source));

        compile::CompileQueue queue(threads);
        std::size_t variants = 0;
        const auto start = std::chrono::steady_clock::now();
        for (const auto& row : manifest.at("trace")) {
            const search::Candidate candidate = search::read_candidate(row);
            if (!candidate.is_original_source()) continue;  // its text is not in the manifest
            queue.submit(
                tune::make_compile_request(spec, candidate, sources, arch, compile::Output::Cubin));
            ++variants;
        }
        std::size_t failed = 0;
        while (auto done = queue.next()) failed += done->result.ok ? 0 : 1;
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const nlohmann::json out = {
            {"variants", variants},
            {"threads", queue.threads()},
            {"wall_s", wall},
            {"compiles_per_minute", static_cast<double>(variants) * 60.0 / wall},
            {"failed", failed}};
        std::printf("%s\n", out.dump().c_str());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "optiml-bench-compile-throughput: %s\n", e.what());
        return 1;
    }
}
