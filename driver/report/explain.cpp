#include "driver/report/explain.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "driver/base/format.h"
#include "driver/report/detail/html_text.h"
#include "driver/report/detail/line_diff.h"
#include "driver/report/detail/size_matrix.h"
#include "driver/search/candidate_json.h"
#include "driver/search/tree_json.h"

namespace optiml::report {
namespace {

using base::format::milliseconds;
using base::format::precise;

std::string signed_number(double value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%+.3f", value);
    return text;
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

// How a measured metric moved against the prediction: "held", "contradicted", "no change", or
// "" where parent or node lacks it.
std::string verdict_of(const search::Effect& effect, const search::Metrics& before,
                       const search::Metrics& after, double* change_out = nullptr) {
    const auto b = before.find(effect.metric);
    const auto a = after.find(effect.metric);
    if (b == before.end() || a == after.end()) return "";
    const double change = b->second != 0.0 ? (a->second - b->second) / std::abs(b->second) : 0.0;
    if (change_out) *change_out = change;
    const double along = effect.direction * change;
    return along > 0.02 ? "held" : along < -0.02 ? "contradicted" : "no change";
}

// "dram_bytes 2.1e+09 -> 1.9e+09 (-9.5%, expected down: held)"
std::string metric_move(const search::Effect& effect, const search::Metrics& before,
                        const search::Metrics& after) {
    const std::string expected = effect.direction < 0 ? "down" : "up";
    double change = 0.0;
    const std::string verdict = verdict_of(effect, before, after, &change);
    if (verdict.empty()) return effect.metric + ": not measured (expected " + expected + ")";
    const auto b = before.find(effect.metric);
    const auto a = after.find(effect.metric);
    char percent[32];
    std::snprintf(percent, sizeof(percent), "%+.1f%%", 100.0 * change);
    return effect.metric + " " + precise(b->second) + " -> " + precise(a->second) + " (" + percent +
           ", expected " + expected + ": " + verdict + ")";
}

std::string indent(const std::string& text, const std::string& pad) {
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line)) out += pad + line + "\n";
    return out;
}

// "evidence coverage 100%, localization n/a, directional 50%" from an "ear" object.
std::string ear_line(const nlohmann::json& ear) {
    std::string out;
    for (const auto& [field, label] : {std::pair{"evidence_coverage", "evidence coverage"},
                                       std::pair{"localization", "localization"},
                                       std::pair{"directional", "directional consistency"}}) {
        const nlohmann::json value = ear.value(field, nlohmann::json(nullptr));
        char percent[32] = "n/a";
        if (value.is_number())
            std::snprintf(percent, sizeof(percent), "%.0f%%", 100.0 * value.get<double>());
        out += (out.empty() ? "" : ", ") + std::string(label) + " " + percent;
    }
    return out;
}

// The LLM layer's account of the search (tree_json + llm/llm_proposer_record.h), when it took part.
void explain_llm_search(const nlohmann::json& llm, std::ostringstream& out) {
    const nlohmann::json proposals = llm.value("proposals", nlohmann::json::array());
    int accepted = 0;
    for (const auto& p : proposals)
        accepted += p.value("node", nlohmann::json(nullptr)).is_null() ? 0 : 1;
    out << "  llm: " << proposals.size() << " proposals asked, " << accepted
        << " became nodes; EAR over the search: "
        << ear_line(llm.value("ear", nlohmann::json::object())) << "\n";
    for (const auto& p : proposals)
        for (const auto& attempt : p.value("attempts", nlohmann::json::array())) {
            const std::string stage = attempt.value("stage", "?");
            if (stage == "accepted") continue;
            std::string reason = attempt.value("reason", "");
            reason = reason.substr(0, reason.find('\n'));
            out << "    rejected at " << p.value("parent", "?") << ", attempt "
                << attempt.value("attempt", 0) << " (" << stage << "): " << reason << "\n";
        }
}

// A node's LLM notes: its EAR scores and the judge's score and verdict.
void explain_llm_node(const nlohmann::json& node, std::ostringstream& out) {
    if (node.contains("ear")) out << "     EAR: " << ear_line(node.at("ear")) << "\n";
    if (!node.contains("judge")) return;
    const nlohmann::json& judge = node.at("judge");
    if (judge.value("score", nlohmann::json(nullptr)).is_number())
        out << "     llm judge: " << precise(judge.at("score").get<double>()) << " before ("
            << judge.value("reason", "") << ")";
    if (judge.value("verdict_score", nlohmann::json(nullptr)).is_number())
        out << "; " << precise(judge.at("verdict_score").get<double>()) << " after ("
            << judge.value("verdict", "") << ")";
    out << "\n";
}

// The search and its winning path.
std::string explain_search(const cache::EntryManifest& m, const SourceLookup& sources) {
    std::ostringstream out;
    out << or_unknown(m.name) << " (" << or_unknown(m.kernel) << ") on "
        << or_unknown(m.device.name) << ", " << or_unknown(m.arch) << "\n"
        << "  original " << milliseconds(m.original_time_ms.median) << " -> winner "
        << milliseconds(m.time_ms.median) << " (" << precise(m.speedup)
        << "x): " << search::format_candidate(m.winner) << "\n";
    out << "  search: " << or_unknown(m.search.strategy) << ", " << m.search.evaluations
        << " evaluations in " << precise(m.search.wall_s) << " s\n";
    if (m.search.tree.is_null()) {
        out << "  no transformation tree: the parameters above are the whole result\n";
        return out.str();
    }
    const search::TreeResult tree = search::read_tree(m.search.tree);
    const auto& root = tree.nodes.at(tree.winning_path.front());
    out << "  tree: " << tree.nodes.size() - 1
        << " nodes measured beyond the root (the parameter search's best, "
        << milliseconds(root.outcome.median_ms) << ")\n";
    const nlohmann::json& tree_json = m.search.tree;
    if (tree_json.contains("llm")) explain_llm_search(tree_json.at("llm"), out);
    if (tree.winning_path.size() < 2) {
        out << "  no transformation beat the root: the winner is the parameter search's best\n";
        return out.str();
    }
    out << "  winning path, " << tree.winning_path.size() - 1 << " steps:\n";
    for (std::size_t step = 1; step < tree.winning_path.size(); ++step) {
        const search::TreeNode& parent = tree.nodes.at(tree.winning_path[step - 1]);
        const search::TreeNode& node = tree.nodes.at(tree.winning_path[step]);
        const search::Proposal& p = node.proposal;
        // A rationale whose predictions the measurements contradict is no explanation of the
        // gain: it is shown as what was proposed, and said to be contradicted.
        int held = 0, contradicted = 0, measured = 0;
        for (const auto& effect : p.expected) {
            const std::string verdict = verdict_of(effect, parent.metrics, node.metrics);
            measured += !verdict.empty();
            held += verdict == "held";
            contradicted += verdict == "contradicted";
        }
        const char* why = contradicted > 0 && held == 0
                              ? "     proposed as (contradicted by the metrics below, so not the "
                                "cause of the gain): "
                          : measured == 0 && !p.expected.empty()
                              ? "     proposed as (its metrics were not measured): "
                              : "     why: ";
        out << "\n  " << step << ". [" << p.kind << "] " << p.transformation << "  (" << p.proposer
            << ")\n"
            << why << p.rationale;
        if (!p.evidence.empty()) out << " [evidence: " << joined(p.evidence) << "]";
        out << "\n     gained: " << milliseconds(parent.outcome.median_ms) << " -> "
            << milliseconds(node.outcome.median_ms) << " ("
            << precise(parent.outcome.median_ms / node.outcome.median_ms) << "x); reward "
            << signed_number(node.reward.total) << " = speedup "
            << signed_number(node.reward.speedup) << " + proxy " << signed_number(node.reward.proxy)
            << " - penalty " << precise(node.reward.penalty < 0.0 ? -node.reward.penalty : 0.0)
            << " + judge " << signed_number(node.reward.judge) << "\n";
        for (const auto& effect : p.expected)
            out << "     moved: " << metric_move(effect, parent.metrics, node.metrics) << "\n";
        explain_llm_node(tree_json.at("nodes").at(node.id), out);
        if (p.candidate.source_id != parent.proposal.candidate.source_id) {
            const auto before = sources(parent.proposal.candidate.source_id);
            const auto after = sources(p.candidate.source_id);
            if (before && after)
                out << indent(unified_diff(*before, *after, "kernel.cu"), "     ");
            else
                out << "     (the entry does not hold both texts: no diff)\n";
        }
    }
    return out.str();
}

}  // namespace

std::string explain(const cache::EntryManifest& m, const SourceLookup& sources) {
    return explain_search(m, sources) + size_matrix_text(m.sizes);
}

}  // namespace optiml::report
