#include "driver/measure/protocol.h"

namespace optiml::measure {

Problem make_problem(const spec::Spec& spec, const spec::ProblemSize* size) {
    const expr::Env env = spec.environment(spec.default_config(), size);
    Problem problem;
    for (const auto& argument : spec.arguments) {
        BufferSpec buffer{argument.name, argument.type, argument.is_pointer, argument.value, 0,
                          argument.fill, argument.role};
        if (size && size->scalars.contains(argument.name))
            buffer.value = static_cast<double>(size->scalars.at(argument.name));
        if (argument.is_pointer) buffer.count = static_cast<std::size_t>(argument.count.eval(env));
        problem.arguments.push_back(buffer);
    }
    for (const auto& constant : spec.constants) {
        BufferSpec buffer{constant.name,
                          constant.type,
                          true,
                          0.0,
                          static_cast<std::size_t>(constant.count.eval(env)),
                          constant.fill,
                          spec::Role::Input};
        problem.constants.push_back(buffer);
    }
    problem.tolerance = {spec.check.rtol, spec.check.atol};
    problem.trials = spec.check.trials;
    problem.deterministic = spec.check.deterministic;
    problem.compare_source = spec.check.compare_as_written;
    for (const spec::Generator& generator : spec.generators)
        problem.generators.push_back({"", generator.source.as_written, generator.fills});
    return problem;
}

TimingSpec make_timing(const spec::Spec& spec) {
    TimingSpec timing;
    timing.rotate_inputs = spec.timing.cold_cache == spec::ColdCache::Rotate;
    timing.flush_l2 = !timing.rotate_inputs;
    timing.decide_warm = spec.timing.decide_by == spec::TimingCondition::Warm;
    return timing;
}

namespace {
const char* role_name(spec::Role role) {
    switch (role) {
        case spec::Role::Input:
            return "input";
        case spec::Role::Output:
            return "output";
        case spec::Role::InOut:
            return "inout";
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
            {"fill",
             {{"kind", static_cast<int>(b.fill.kind)},
              {"a", b.fill.a},
              {"b", b.fill.b},
              {"seed", b.fill.seed}}},
            {"role", role_name(b.role)}};
    // The worker runs on this machine, beside this checkout: the path is enough.
    if (b.fill.kind == spec::Fill::Kind::File)
        json["fill"]["file"] = {{"path", b.fill.file.path.string()},
                                {"as_written", b.fill.file.as_written}};
    if (b.fill.kind == spec::Fill::Kind::Generator)
        json["fill"]["generator"] = {{"path", b.fill.generator.path.string()},
                                     {"as_written", b.fill.generator.as_written}};
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
    if (fill.contains("file")) {
        b.fill.file.path = fill["file"].at("path").get<std::string>();
        b.fill.file.as_written = fill["file"].at("as_written").get<std::string>();
    }
    if (fill.contains("generator")) {
        b.fill.generator.path = fill["generator"].at("path").get<std::string>();
        b.fill.generator.as_written = fill["generator"].at("as_written").get<std::string>();
    }
    b.role = role_from(json.at("role").get<std::string>());
}

void to_json(nlohmann::json& json, const GeneratorSpec& g) {
    json = {{"library", g.library}, {"source", g.source}, {"fills", g.fills}};
}

void from_json(const nlohmann::json& json, GeneratorSpec& g) {
    g.library = json.at("library").get<std::string>();
    g.source = json.at("source").get<std::string>();
    g.fills = json.at("fills").get<std::vector<std::string>>();
}

void to_json(nlohmann::json& json, const Problem& p) {
    json = {{"arguments", p.arguments},
            {"constants", p.constants},
            {"rtol", p.tolerance.rtol},
            {"atol", p.tolerance.atol},
            {"trials", p.trials},
            {"deterministic", p.deterministic},
            {"seed_base", p.seed_base},
            {"compare_library", p.compare_library},
            {"compare_source", p.compare_source}};
    if (!p.generators.empty()) json["generators"] = p.generators;
}

void from_json(const nlohmann::json& json, Problem& p) {
    p.arguments = json.at("arguments").get<std::vector<BufferSpec>>();
    p.constants = json.at("constants").get<std::vector<BufferSpec>>();
    p.tolerance = {json.at("rtol").get<double>(), json.at("atol").get<double>()};
    p.trials = json.value("trials", 3);
    p.deterministic = json.value("deterministic", true);
    p.seed_base = json.value("seed_base", std::uint64_t{0});
    p.compare_library = json.value("compare_library", std::string{});
    p.compare_source = json.value("compare_source", std::string{});
    if (json.contains("generators"))
        p.generators = json["generators"].get<std::vector<GeneratorSpec>>();
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
            {"relative_ci", t.relative_ci},
            {"cap_ms", t.cap_ms},
            {"flush_l2", t.flush_l2},
            {"rotate_inputs", t.rotate_inputs},
            {"warm", t.warm},
            {"decide_warm", t.decide_warm}};
}

void from_json(const nlohmann::json& json, TimingSpec& t) {
    t.warmup = json.at("warmup").get<int>();
    t.min_runs = json.at("min_runs").get<int>();
    t.max_runs = json.at("max_runs").get<int>();
    t.relative_ci = json.at("relative_ci").get<double>();
    t.cap_ms = json.at("cap_ms").get<double>();
    t.flush_l2 = json.at("flush_l2").get<bool>();
    t.rotate_inputs = json.value("rotate_inputs", false);
    t.warm = json.value("warm", t.warm);
    t.decide_warm = json.value("decide_warm", false);
}

// "incumbent" and "verified" only when they say something: a single-GPU request stays as it was.
void to_json(nlohmann::json& json, const EvaluateRequest& r) {
    json = {{"op", "evaluate"}, {"launch", r.launch}, {"timing", r.timing}};
    if (r.incumbent) json["incumbent"] = *r.incumbent;
    if (r.verified) json["verified"] = true;
}

void from_json(const nlohmann::json& json, EvaluateRequest& r) {
    r.launch = json.at("launch").get<LaunchSpec>();
    r.timing = json.at("timing").get<TimingSpec>();
    r.incumbent.reset();
    if (json.contains("incumbent")) r.incumbent = json["incumbent"].get<LaunchSpec>();
    r.verified = json.value("verified", false);
}

// Every field travels; readers default what an older worker did not send.
#define OPTIML_MEASUREMENT_FIELDS(X)                                                            \
    X(ok)                                                                                       \
    X(status)                                                                                   \
    X(message)                                                                                  \
    X(fatal)                                                                                    \
    X(median_ms)                                                                                \
    X(min_ms)                                                                                   \
    X(max_ms) X(ci_low_ms) X(ci_high_ms) X(runs) X(launch_bound) X(has_incumbent)               \
        X(incumbent_median_ms) X(incumbent_ci_low_ms) X(incumbent_ci_high_ms) X(incumbent_runs) \
            X(verify_ms) X(timing_ms) X(sm_clock_mhz) X(memory_clock_mhz) X(cold_cache)         \
                X(input_copies) X(decided_by) X(cold_median_ms) X(warm_median_ms)               \
                    X(incumbent_cold_median_ms) X(incumbent_warm_median_ms) X(warm_runs)        \
                        X(warm_burst)

void to_json(nlohmann::json& json, const Measurement& m) {
    json = nlohmann::json::object();
#define OPTIML_WRITE(field) json[#field] = m.field;
    OPTIML_MEASUREMENT_FIELDS(OPTIML_WRITE)
#undef OPTIML_WRITE
}

void from_json(const nlohmann::json& json, Measurement& m) {
    m = Measurement{};
#define OPTIML_READ(field) m.field = json.value(#field, m.field);
    OPTIML_MEASUREMENT_FIELDS(OPTIML_READ)
#undef OPTIML_READ
    if (m.status.empty()) m.status = m.ok ? "ok" : "error";
}

}  // namespace optiml::measure
