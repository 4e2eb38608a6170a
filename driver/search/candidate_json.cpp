#include "driver/search/candidate_json.h"

namespace optiml::search {

void write_candidate(const Candidate& candidate, nlohmann::json& object) {
    object["parameters"] = candidate.parameters;
    if (!candidate.is_original_source()) {
        object["source_id"] = candidate.source_id;
        object["transformations"] = candidate.transformations;
    }
    if (!candidate.options.empty()) object["options"] = candidate.options;
}

Candidate read_candidate(const nlohmann::json& object) {
    Candidate candidate;
    candidate.parameters = object.at("parameters").get<Config>();
    candidate.source_id = object.value("source_id", "");
    if (const auto found = object.find("transformations"); found != object.end())
        candidate.transformations = found->get<std::vector<std::string>>();
    if (const auto found = object.find("options"); found != object.end())
        candidate.options = found->get<std::vector<std::string>>();
    return candidate;
}

}  // namespace optiml::search
