#include "driver/search/candidate_json.h"

namespace optiml::search {

void write_candidate(const Candidate& candidate, nlohmann::json& object) {
    object["parameters"] = candidate.parameters;
    if (!candidate.is_original_source()) {
        object["source_id"] = candidate.source_id;
        object["transformations"] = candidate.transformations;
    }
    if (!candidate.options.empty()) object["options"] = candidate.options;
    if (!candidate.grid.empty()) object["grid"] = candidate.grid;
}

Candidate read_candidate(const nlohmann::json& object) {
    Candidate candidate;
    candidate.parameters = object.at("parameters").get<Config>();
    candidate.source_id = object.value("source_id", "");
    if (const auto found = object.find("transformations"); found != object.end())
        candidate.transformations = found->get<std::vector<std::string>>();
    if (const auto found = object.find("options"); found != object.end())
        candidate.options = found->get<std::vector<std::string>>();
    if (const auto found = object.find("grid"); found != object.end())
        candidate.grid = found->get<std::vector<std::string>>();
    return candidate;
}

nlohmann::json details_json(const OutcomeDetails& d) {
    nlohmann::json json = nlohmann::json::object();
    const auto put = [&json](const char* name, const auto& value) {
        if (value) json[name] = *value;
    };
    const auto flag = [&json](const char* name, bool set) {
        if (set) json[name] = 1;
    };
    put("ci_low_ms", d.ci_low_ms);
    put("ci_high_ms", d.ci_high_ms);
    put("verify_ms", d.verify_ms);
    put("timing_ms", d.timing_ms);
    put("sm_clock_mhz", d.sm_clock_mhz);
    put("memory_clock_mhz", d.memory_clock_mhz);
    flag("launch_bound", d.launch_bound);
    put("input_copies", d.input_copies);
    flag("l2_flushed", d.l2_flushed);
    put("incumbent_median_ms", d.incumbent_median_ms);
    put("incumbent_ci_low_ms", d.incumbent_ci_low_ms);
    put("incumbent_ci_high_ms", d.incumbent_ci_high_ms);
    if (d.decided_warm) json["decided_warm"] = *d.decided_warm ? 1 : 0;
    put("cold_median_ms", d.cold_median_ms);
    put("incumbent_cold_median_ms", d.incumbent_cold_median_ms);
    put("warm_median_ms", d.warm_median_ms);
    put("incumbent_warm_median_ms", d.incumbent_warm_median_ms);
    put("warm_burst", d.warm_burst);
    put("warm_runs", d.warm_runs);
    put("compile_ms", d.compile_ms);
    put("compile_wait_ms", d.compile_wait_ms);
    flag("compile_cached", d.compile_cached);
    put("extra_sizes_verify_ms", d.extra_sizes_verify_ms);
    put("verified_on_device", d.verified_on_device);
    flag("reverified", d.reverified);
    if (d.same_image_as) write_candidate(*d.same_image_as, json["same_image_as"]);
    return json;
}

}  // namespace optiml::search
