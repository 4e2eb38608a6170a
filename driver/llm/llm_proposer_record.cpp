#include "driver/llm/llm_proposer_record.h"

#include "driver/search/search.h"

namespace optiml::llm {
namespace {

using nlohmann::json;

json optional_number(const std::optional<double>& value) {
    return value ? json(*value) : json(nullptr);
}

json changes_json(const std::vector<Change>& changes) {
    json out = json::array();
    for (const Change& c : changes)
        out.push_back({{"lines", {c.first_line, c.last_line}},
                       {"reason", c.reason},
                       {"evidence", c.evidence}});
    return out;
}

json note_json(const JudgeNote& note) {
    return {{"score", optional_number(note.score)},
            {"reason", note.reason},
            {"verdict_score", optional_number(note.verdict_score)},
            {"verdict", note.verdict},
            {"failure", note.failure}};
}

std::optional<std::size_t> node_of(const search::TreeResult& tree,
                                   const search::Candidate& candidate) {
    for (const search::TreeNode& node : tree.nodes)
        if (node.parent && node.candidate() == candidate) return node.id;
    return std::nullopt;
}

}  // namespace

json llm_record(const search::TreeResult& tree, const std::vector<ProposalRecord>& proposals,
                const std::map<search::Candidate, JudgeNote>& notes) {
    json nodes = json::object();
    json listed = json::array();
    std::vector<EarScores> scores;
    Usage usage;
    for (const ProposalRecord& record : proposals) {
        usage.prompt_tokens += record.usage.prompt_tokens;
        usage.completion_tokens += record.usage.completion_tokens;
        json attempts = json::array();
        for (const Attempt& a : record.attempts)
            attempts.push_back({{"attempt", a.number}, {"stage", a.stage}, {"reason", a.reason}});
        json item = {{"parent", search::format_candidate(record.parent)},
                     {"attempts", std::move(attempts)},
                     {"node", nullptr}};
        const auto id = record.child ? node_of(tree, *record.child) : std::nullopt;
        if (id) {
            EarScores ear = record.ear;
            const search::TreeNode& node = tree.nodes[*id];
            if (!node.rejected) ear.directional = directional_consistency(node.consistency);
            scores.push_back(ear);
            item["node"] = *id;
            json entry = {{"ear", to_json(ear)},
                          {"changes", changes_json(record.changes)},
                          {"suggestions", record.suggestions}};
            if (const auto note = notes.find(*record.child); note != notes.end())
                entry["judge"] = note_json(note->second);
            nodes[std::to_string(*id)] = std::move(entry);
        }
        listed.push_back(std::move(item));
    }
    // Text-changing proposals of the rule proposers the model judged, too.
    for (const search::TreeNode& node : tree.nodes) {
        const auto note = notes.find(node.candidate());
        if (!node.parent || note == notes.end() || nodes.contains(std::to_string(node.id)))
            continue;
        nodes[std::to_string(node.id)] = {{"judge", note_json(note->second)}};
    }
    return {{"nodes", std::move(nodes)},
            {"search",
             {{"ear", to_json(mean_scores(scores))},
              {"proposals", std::move(listed)},
              {"usage",
               {{"prompt_tokens", usage.prompt_tokens},
                {"completion_tokens", usage.completion_tokens}}}}}};
}

void attach_record(json& tree, const json& record) {
    for (const auto& [id, entry] : record.at("nodes").items()) {
        json& node = tree.at("nodes").at(std::stoul(id));
        for (const auto& [key, value] : entry.items()) node[key] = value;
    }
    tree["llm"] = record.at("search");
}

}  // namespace optiml::llm
