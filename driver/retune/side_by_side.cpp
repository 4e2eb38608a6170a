#include "driver/retune/detail/side_by_side.h"

#include <fstream>
#include <memory>
#include <stdexcept>

#include "cache/entry_manifest.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/measuring_session.h"

namespace optiml::retune {
namespace fs = std::filesystem;
namespace {

// The entry's CUBIN written to `image`, at the entry's parameters' launch geometry.
measure::LaunchSpec entry_launch(const spec::Spec& spec, const cache::Entry& entry,
                                 const fs::path& image) {
    const cache::EntryManifest manifest = cache::read_entry_manifest(entry);
    const auto cubin = entry.files.find(manifest.file("cubin"));
    if (cubin == entry.files.end())
        throw std::runtime_error("entry " + entry.key.substr(0, 12) + " holds no CUBIN");
    {
        std::ofstream out(image, std::ios::binary);
        out << cubin->second;
        if (!out) throw std::runtime_error("cannot write " + image.string());
    }
    measure::LaunchSpec launch = tune::make_launch(spec, manifest.winner);
    launch.image_path = image.string();
    launch.symbol = manifest.lowered_name;
    return launch;
}

}  // namespace

measure::Measurement time_side_by_side(const spec::Spec& spec, const measure::DeviceInfo& device,
                                       const cache::Entry& challenger,
                                       const cache::Entry& incumbent,
                                       const std::string& host_compiler) {
    // Fresh inputs neither binary has seen.
    std::unique_ptr<tune::MeasuringSession> session;
    try {
        session = std::make_unique<tune::MeasuringSession>(
            spec, device, tune::SessionSetup{host_compiler, true, false, nullptr});
    } catch (const tune::SessionError& e) {
        if (e.step == tune::SessionError::Step::Original)
            throw std::runtime_error("the original kernel does not compile: " + e.compile_log);
        throw;
    }
    const measure::LaunchSpec challenger_launch =
        entry_launch(spec, challenger, session->scratch() / "challenger.cubin");
    const measure::LaunchSpec incumbent_launch =
        entry_launch(spec, incumbent, session->scratch() / "incumbent.cubin");
    // As generous as the evaluator's first-candidate limit: nothing is known of the times yet.
    return session->worker().evaluate(challenger_launch, measure::make_timing(spec),
                                      std::chrono::minutes(5), &incumbent_launch);
}

}  // namespace optiml::retune
