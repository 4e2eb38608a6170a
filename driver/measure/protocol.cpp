#include "driver/measure/protocol.h"

namespace optiml::measure {

Problem make_problem(const spec::Spec& spec) {
    const expr::Env env = spec.environment(spec.default_config());
    Problem problem;
    for (const auto& argument : spec.arguments) {
        BufferSpec buffer{argument.name, argument.type, argument.is_pointer, argument.value, 0,
                          argument.fill, argument.role};
        if (argument.is_pointer) buffer.count = static_cast<std::size_t>(argument.count.eval(env));
        problem.arguments.push_back(buffer);
    }
    for (const auto& constant : spec.constants) {
        BufferSpec buffer{constant.name, constant.type, true, 0.0,
                          static_cast<std::size_t>(constant.count.eval(env)), constant.fill,
                          spec::Role::Input};
        problem.constants.push_back(buffer);
    }
    problem.tolerance = {spec.check.rtol, spec.check.atol};
    return problem;
}

namespace {
const char* role_name(spec::Role role) {
    switch (role) {
        case spec::Role::Input: return "input";
        case spec::Role::Output: return "output";
        case spec::Role::InOut: return "inout";
    }
    return "input";
}
spec::Role role_from(const std::string& name) {
    if (name == "output") return spec::Role::Output;
    if (name == "inout") return spec::Role::InOut;
    return spec::Role::Input;
}
}  // namespace

void to_json(nlohmann::json& json, const BufferSpec& b) {
    json = {{"name", b.name},
            {"type", spec::to_string(b.type)},
            {"pointer", b.is_pointer},
            {"value", b.value},
            {"count", b.count},
            {"fill", {{"kind", static_cast<int>(b.fill.kind)},
                      {"a", b.fill.a},
                      {"b", b.fill.b},
                      {"seed", b.fill.seed}}},
            {"role", role_name(b.role)}};
}

void from_json(const nlohmann::json& json, BufferSpec& b) {
    b.name = json.at("name").get<std::string>();
    b.type = spec::parse_element_type(json.at("type").get<std::string>()).value();
    b.is_pointer = json.at("pointer").get<bool>();
    b.value = json.at("value").get<double>();
    b.count = json.at("count").get<std::size_t>();
    const auto& fill = json.at("fill");
    b.fill.kind = static_cast<spec::Fill::Kind>(fill.at("kind").get<int>());
    b.fill.a = fill.at("a").get<double>();
    b.fill.b = fill.at("b").get<double>();
    b.fill.seed = fill.at("seed").get<std::uint64_t>();
    b.role = role_from(json.at("role").get<std::string>());
}

void to_json(nlohmann::json& json, const Problem& p) {
    json = {{"arguments", p.arguments},
            {"constants", p.constants},
            {"rtol", p.tolerance.rtol},
            {"atol", p.tolerance.atol}};
}

void from_json(const nlohmann::json& json, Problem& p) {
    p.arguments = json.at("arguments").get<std::vector<BufferSpec>>();
    p.constants = json.at("constants").get<std::vector<BufferSpec>>();
    p.tolerance = {json.at("rtol").get<double>(), json.at("atol").get<double>()};
}

void to_json(nlohmann::json& json, const LaunchSpec& l) {
    json = {{"image", l.image_path},
            {"symbol", l.symbol},
            {"grid", l.grid},
            {"block", l.block},
            {"shared_memory_bytes", l.shared_memory_bytes}};
}

void from_json(const nlohmann::json& json, LaunchSpec& l) {
    l.image_path = json.at("image").get<std::string>();
    l.symbol = json.at("symbol").get<std::string>();
    l.grid = json.at("grid").get<std::array<unsigned, 3>>();
    l.block = json.at("block").get<std::array<unsigned, 3>>();
    l.shared_memory_bytes = json.at("shared_memory_bytes").get<unsigned>();
}

void to_json(nlohmann::json& json, const TimingSpec& t) {
    json = {{"warmup", t.warmup},
            {"min_runs", t.min_runs},
            {"max_runs", t.max_runs},
            {"target_ms", t.target_ms},
            {"flush_l2", t.flush_l2}};
}

void from_json(const nlohmann::json& json, TimingSpec& t) {
    t.warmup = json.at("warmup").get<int>();
    t.min_runs = json.at("min_runs").get<int>();
    t.max_runs = json.at("max_runs").get<int>();
    t.target_ms = json.at("target_ms").get<double>();
    t.flush_l2 = json.at("flush_l2").get<bool>();
}

void to_json(nlohmann::json& json, const Measurement& m) {
    json = {{"ok", m.ok},         {"status", m.status},       {"message", m.message},
            {"fatal", m.fatal},   {"median_ms", m.median_ms}, {"min_ms", m.min_ms},
            {"max_ms", m.max_ms}, {"runs", m.runs}};
}

void from_json(const nlohmann::json& json, Measurement& m) {
    m.ok = json.value("ok", false);
    m.status = json.value("status", m.ok ? "ok" : "error");
    m.message = json.value("message", "");
    m.fatal = json.value("fatal", false);
    m.median_ms = json.value("median_ms", 0.0);
    m.min_ms = json.value("min_ms", 0.0);
    m.max_ms = json.value("max_ms", 0.0);
    m.runs = json.value("runs", 0);
}

}  // namespace optiml::measure
