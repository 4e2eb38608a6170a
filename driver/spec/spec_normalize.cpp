// The canonical JSON of a spec: what the cache key hashes. Built from the parsed Spec, so every
// default is filled in, every expression is its text, keys are sorted (nlohmann::json's std::map)
// and formatting, comments and key order of the file do not matter. No absolute paths.
#include "driver/spec/detail/spec_internal.h"

namespace optiml::spec::detail {
namespace {

using nlohmann::json;

json fill_json(const Fill& fill) {
    switch (fill.kind) {
        case Fill::Kind::Uniform:
            return {{"kind", "uniform"}, {"min", fill.a}, {"max", fill.b}, {"seed", fill.seed}};
        case Fill::Kind::Normal:
            return {{"kind", "normal"}, {"mean", fill.a}, {"stddev", fill.b}, {"seed", fill.seed}};
        case Fill::Kind::Constant:
            return {{"kind", "constant"}, {"value", fill.a}};
        case Fill::Kind::Iota:
            return {{"kind", "iota"}, {"start", fill.a}, {"step", fill.b}};
        case Fill::Kind::File:  // the file's bytes enter the cache key beside the spec
            return {{"kind", "file"}, {"path", fill.file.as_written}};
        case Fill::Kind::Generator:  // the source's text enters the cache key beside the spec
            return {{"kind", "generator"}, {"source", fill.generator.as_written}};
    }
    return nullptr;  // unreachable: every kind is handled above
}

json argument_json(const Argument& argument) {
    json out = {{"name", argument.name},
                {"type", to_string(argument.type)},
                {"pointer", argument.is_pointer}};
    if (argument.is_pointer) {
        out["count"] = argument.count.text();
        out["role"] = to_string(argument.role);
        if (argument.role != Role::Output) out["fill"] = fill_json(argument.fill);
    } else if (is_floating(argument.type)) {
        out["value"] = argument.value;
    } else {
        out["value"] = argument.integer_value;
    }
    return out;
}

// Fields added after the first seed caches were committed appear only when they differ from
// their defaults, so specs that leave them out keep their cache keys.
json check_json(const Check& check) {
    json out = {{"rtol", check.rtol}, {"atol", check.atol}};
    const Check defaults;
    if (check.trials != defaults.trials) out["trials"] = check.trials;
    if (check.deterministic != defaults.deterministic) out["deterministic"] = check.deterministic;
    if (!check.extra_sizes.empty()) {
        json sizes = json::array();
        for (const ProblemSize& size : check.extra_sizes) sizes.push_back(size.scalars);
        out["extra_sizes"] = sizes;
    }
    if (!check.compare_as_written.empty()) out["compare"] = check.compare_as_written;
    return out;
}

json dimensions_json(const std::array<expr::Expr, 3>& dimensions) {
    json out = json::array();
    for (const expr::Expr& dimension : dimensions) out.push_back(dimension.text());
    return out;
}

}  // namespace

json normalize(const Spec& spec) {
    json arguments = json::array();
    for (const Argument& argument : spec.arguments) arguments.push_back(argument_json(argument));
    json parameters = json::array();
    for (const Parameter& parameter : spec.parameters) {
        parameters.push_back({{"name", parameter.name},
                              {"values", parameter.values},
                              {"default", parameter.default_value}});
    }
    json constraints = json::array();
    for (const expr::Expr& constraint : spec.constraints) constraints.push_back(constraint.text());
    json constants = json::array();
    for (const ConstantSymbol& constant : spec.constants) {
        constants.push_back({{"name", constant.name},
                             {"type", to_string(constant.type)},
                             {"count", constant.count.text()},
                             {"fill", fill_json(constant.fill)}});
    }
    json out = {
        {"name", spec.name},
        {"source", spec.source_as_written},
        {"kernel", spec.kernel},
        {"include_dirs", spec.include_dirs},
        {"arguments", arguments},
        {"launch",
         {{"block", dimensions_json(spec.launch.block)},
          {"grid", dimensions_json(spec.launch.grid)},
          {"shared_memory_bytes", spec.launch.shared_memory_bytes.text()}}},
        {"parameters", parameters},
        {"constraints", constraints},
        {"constants", constants},
        {"nvrtc_options", spec.nvrtc_options},
        {"check", check_json(spec.check)},
        {"budget",
         {{"evaluations", spec.budget.evaluations ? json(*spec.budget.evaluations) : json("auto")},
          {"seconds", spec.budget.seconds}}},
    };
    // Like check's later fields: present only when not the default, so older keys stay valid.
    // A budget's strategy too: every key made before strategies existed stays valid.
    if (spec.budget.strategy != Budget{}.strategy) out["budget"]["strategy"] = spec.budget.strategy;
    if (spec.compiler != Spec{}.compiler) out["compiler"] = spec.compiler;
    if (!spec.launch_arguments.empty()) {
        json launch_arguments = json::array();
        for (const LaunchArgument& argument : spec.launch_arguments) {
            launch_arguments.push_back({{"name", argument.name},
                                        {"type", to_string(argument.type)},
                                        {"value", argument.value}});
        }
        out["launch_arguments"] = launch_arguments;
    }
    // Each timing field only when not the default: every key made before it existed stays valid.
    json timing = json::object();
    if (spec.timing.cold_cache != Timing{}.cold_cache)
        timing["cold_cache"] = to_string(spec.timing.cold_cache);
    if (spec.timing.decide_by != Timing{}.decide_by)
        timing["decide_by"] = to_string(spec.timing.decide_by);
    if (!timing.empty()) out["timing"] = timing;
    // Expanded (a range and the list it holds are one key); absent for one problem.
    if (!spec.problems.empty()) {
        json problems = json::array();
        for (const ProblemSize& problem : spec.problems) problems.push_back(problem.scalars);
        out["problems"] = problems;
    }
    return out;
}

}  // namespace optiml::spec::detail
