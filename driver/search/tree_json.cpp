#include "driver/search/tree_json.h"

#include <algorithm>

#include "driver/search/candidate_json.h"
#include "driver/search/detail/recording_json.h"

namespace optiml::search {
namespace {

using detail::JsonPath;
using nlohmann::json;

json write_node(const TreeNode& node, bool on_winning_path) {
    const Proposal& edge = node.proposal;
    json object = {{"id", node.id},
                   {"parent", node.parent ? json(*node.parent) : json(nullptr)},
                   {"kind", edge.kind},
                   {"proposer", edge.proposer},
                   {"transformation", edge.transformation},
                   {"rationale", edge.rationale},
                   {"evidence", edge.evidence},
                   {"expected", json::array()}};
    for (const Effect& effect : edge.expected)
        object["expected"].push_back({{"metric", effect.metric}, {"direction", effect.direction}});
    write_candidate(edge.candidate, object);
    object["status"] = node.outcome.status;
    if (node.outcome.ok)
        object["time_ms"] = {{"median", node.outcome.median_ms},
                             {"min", node.outcome.min_ms},
                             {"max", node.outcome.max_ms},
                             {"runs", node.outcome.runs}};
    else
        object["message"] = node.outcome.message;
    object["metrics"] = node.metrics;
    object["bottleneck"] = node.bottleneck;
    object["judge_score"] = node.judge_score;
    object["reward"] = {{"speedup", node.reward.speedup},
                        {"proxy", node.reward.proxy},
                        {"penalty", node.reward.penalty},
                        {"judge", node.reward.judge},
                        {"total", node.reward.total}};
    object["consistency"] = {{"held", node.consistency.held},
                             {"contradicted", node.consistency.contradicted},
                             {"unmeasured", node.consistency.unmeasured}};
    object["rejected"] = node.rejected;
    object["visits"] = node.visits;
    object["on_winning_path"] = on_winning_path;
    return object;
}

// Typed members of one object, each failing with the field's path.
class Reader {
  public:
    Reader(const json& object, JsonPath path, const std::string& what)
        : object_(path.object(object, what)), path_(std::move(path)) {}

    const json& get(const char* name, const std::string& expected) const {
        return path_.member(object_, name, expected);
    }
    double number(const char* name) const {
        return path_.field(name).number(get(name, "a number"), "a number");
    }
    int integer(const char* name) const {
        return static_cast<int>(path_.field(name).integer(get(name, "an integer"), "an integer"));
    }
    std::string string(const char* name) const {
        return path_.field(name).string(get(name, "a string"), "a string");
    }
    bool boolean(const char* name) const {
        const json& value = get(name, "true or false");
        if (!value.is_boolean()) path_.field(name).fail_got(value, "true or false");
        return value.get<bool>();
    }
    std::vector<std::string> strings(const char* name) const {
        std::vector<std::string> values;
        const JsonPath at = path_.field(name);
        const json& array = at.array(get(name, "an array of strings"), "an array of strings");
        for (std::size_t i = 0; i < array.size(); ++i)
            values.push_back(at.index(i).string(array[i], "a string"));
        return values;
    }
    Reader child(const char* name, const std::string& what) const {
        return {get(name, what), path_.field(name), what};
    }
    const json& object() const { return object_; }
    const JsonPath& path() const { return path_; }

  private:
    const json& object_;
    JsonPath path_;
};

std::size_t node_id(const JsonPath& at, const json& value, std::size_t count) {
    const std::int64_t id = at.integer(value, "a node id");
    if (id < 0 || static_cast<std::size_t>(id) >= count)
        at.fail("no node " + std::to_string(id), "an id below " + std::to_string(count));
    return static_cast<std::size_t>(id);
}

Outcome read_outcome(const Reader& node) {
    Outcome outcome;
    outcome.status = node.string("status");
    outcome.ok = node.object().contains("time_ms");
    if (!outcome.ok) {
        outcome.message = node.string("message");
        return outcome;
    }
    const Reader time = node.child("time_ms", "an object of median, min, max, runs");
    outcome.median_ms = time.number("median");
    outcome.min_ms = time.number("min");
    outcome.max_ms = time.number("max");
    outcome.runs = time.integer("runs");
    return outcome;
}

Proposal read_edge(const Reader& node) {
    Proposal edge;
    edge.kind = node.string("kind");
    edge.proposer = node.string("proposer");
    edge.transformation = node.string("transformation");
    edge.rationale = node.string("rationale");
    edge.evidence = node.strings("evidence");
    const JsonPath at = node.path().field("expected");
    const json& expected = at.array(node.get("expected", "an array"), "an array");
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const Reader effect(expected[i], at.index(i), "an object of metric, direction");
        edge.expected.push_back({effect.string("metric"), effect.integer("direction")});
    }
    try {
        edge.candidate = read_candidate(node.object());
    } catch (const json::exception& e) {
        node.path().fail(e.what(), "parameters, source_id, transformations, options");
    }
    return edge;
}

TreeNode read_node(const json& value, const JsonPath& at, std::size_t index, std::size_t count) {
    const Reader node(value, at, "a node object");
    TreeNode out;
    out.id = node_id(at.field("id"), node.get("id", "a node id"), count);
    if (out.id != index)
        at.field("id").fail("got " + std::to_string(out.id), std::to_string(index));
    if (const json& parent = node.get("parent", "a node id or null"); !parent.is_null())
        out.parent = node_id(at.field("parent"), parent, count);
    out.proposal = read_edge(node);
    out.outcome = read_outcome(node);
    const JsonPath metrics_at = at.field("metrics");
    const json& metrics = metrics_at.object(node.get("metrics", "an object"), "an object");
    for (const auto& [name, number] : metrics.items())
        out.metrics[name] = metrics_at.field(name).number(number, "a number");
    out.bottleneck = node.string("bottleneck");
    out.judge_score = node.number("judge_score");
    const Reader reward = node.child("reward", "an object of reward terms");
    out.reward = {reward.number("speedup"), reward.number("proxy"), reward.number("penalty"),
                  reward.number("judge"), reward.number("total")};
    const Reader consistency =
        node.child("consistency", "an object of held, contradicted, unmeasured");
    out.consistency = {consistency.integer("held"), consistency.integer("contradicted"),
                       consistency.integer("unmeasured")};
    out.rejected = node.boolean("rejected");
    out.visits = node.number("visits");
    node.boolean("on_winning_path");  // derived from winning_path; checked for its type only
    return out;
}

}  // namespace

json write_tree(const TreeResult& tree) {
    json nodes = json::array();
    for (const TreeNode& node : tree.nodes)
        nodes.push_back(write_node(
            node, std::find(tree.winning_path.begin(), tree.winning_path.end(), node.id) !=
                      tree.winning_path.end()));
    return {{"nodes", std::move(nodes)},
            {"best", tree.best},
            {"winning_path", tree.winning_path},
            {"wall_s", tree.wall_s},
            {"stopped_by_time", tree.stopped_by_time}};
}

TreeResult read_tree(const json& document) {
    const Reader top(document, JsonPath("tree"), "a tree object");
    TreeResult tree;
    const JsonPath nodes_at = top.path().field("nodes");
    const json& nodes = nodes_at.array(top.get("nodes", "an array of nodes"), "an array of nodes");
    for (std::size_t i = 0; i < nodes.size(); ++i)
        tree.nodes.push_back(read_node(nodes[i], nodes_at.index(i), i, nodes.size()));
    tree.best = node_id(top.path().field("best"), top.get("best", "a node id"), nodes.size());
    const JsonPath path_at = top.path().field("winning_path");
    const json& path =
        path_at.array(top.get("winning_path", "an array of node ids"), "an array of node ids");
    for (std::size_t i = 0; i < path.size(); ++i)
        tree.winning_path.push_back(node_id(path_at.index(i), path[i], nodes.size()));
    tree.wall_s = top.number("wall_s");
    tree.stopped_by_time = top.boolean("stopped_by_time");
    return tree;
}

std::string path_source_file(const std::string& source_id) {
    return source_id.empty() ? "source-original.cu" : "source-" + source_id.substr(0, 16) + ".cu";
}

}  // namespace optiml::search
