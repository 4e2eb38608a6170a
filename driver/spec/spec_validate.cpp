// Checks that span several fields: unique names, names used by expressions, an output exists,
// and the default configuration (the original kernel) evaluates to a launchable geometry.
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "driver/spec/data_file.h"
#include "driver/spec/detail/json_field.h"
#include "driver/spec/detail/spec_internal.h"

namespace optiml::spec::detail {
namespace {

constexpr std::int64_t kMaxThreadsPerBlock = 1024;  // every CUDA GPU's limit

// One expression of the spec and the field it came from.
struct Located {
    std::string field;
    const expr::Expr* expression;
};

std::vector<Located> expressions(const Spec& spec) {
    std::vector<Located> all;
    for (std::size_t i = 0; i < spec.arguments.size(); ++i) {
        if (spec.arguments[i].is_pointer) {
            all.push_back({"arguments[" + std::to_string(i) + "].count", &spec.arguments[i].count});
        }
    }
    for (std::size_t d = 0; d < 3; ++d)
        all.push_back({"launch.block[" + std::to_string(d) + "]", &spec.launch.block[d]});
    for (std::size_t d = 0; d < 3; ++d)
        all.push_back({"launch.grid[" + std::to_string(d) + "]", &spec.launch.grid[d]});
    all.push_back({"launch.shared_memory_bytes", &spec.launch.shared_memory_bytes});
    for (std::size_t i = 0; i < spec.constraints.size(); ++i) {
        all.push_back({"constraints[" + std::to_string(i) + "]", &spec.constraints[i]});
    }
    for (std::size_t i = 0; i < spec.constants.size(); ++i) {
        all.push_back({"constants[" + std::to_string(i) + "].count", &spec.constants[i].count});
    }
    return all;
}

void check_unique_names(const Spec& spec, const std::string& file) {
    std::map<std::string, std::string> first_use;  // name -> where it was declared
    const auto declare = [&](const std::string& name, const std::string& where) {
        const auto [existing, inserted] = first_use.emplace(name, where);
        if (!inserted) {
            fail(file, where + ".name",
                 "\"" + name + "\" is already the name of " + existing->second,
                 "names unique across arguments, launch arguments, parameters and constants");
        }
    };
    for (std::size_t i = 0; i < spec.arguments.size(); ++i)
        declare(spec.arguments[i].name, "arguments[" + std::to_string(i) + "]");
    for (std::size_t i = 0; i < spec.launch_arguments.size(); ++i)
        declare(spec.launch_arguments[i].name, "launch_arguments[" + std::to_string(i) + "]");
    for (std::size_t i = 0; i < spec.parameters.size(); ++i)
        declare(spec.parameters[i].name, "parameters[" + std::to_string(i) + "]");
    for (std::size_t i = 0; i < spec.constants.size(); ++i)
        declare(spec.constants[i].name, "constants[" + std::to_string(i) + "]");
}

void check_names_known(const Spec& spec, const std::string& file) {
    std::vector<std::string> known;  // sorted, for the message
    for (const auto& [name, value] : spec.environment(spec.default_config())) known.push_back(name);
    const std::string expected =
        "an integer scalar argument or a parameter: " + join_or(known, "none are declared");
    for (const Located& located : expressions(spec)) {
        for (const std::string& name : located.expression->names()) {
            if (std::binary_search(known.begin(), known.end(), name)) continue;
            std::string problem = "unknown name '" + name + "'";
            for (const Argument& argument : spec.arguments) {
                if (argument.name != name) continue;
                problem = argument.is_pointer
                              ? "'" + name + "' is a pointer argument, which expressions cannot use"
                              : "'" + name + "' is a " + to_string(argument.type) +
                                    " argument, which expressions cannot use";
            }
            for (const ConstantSymbol& constant : spec.constants) {
                if (constant.name == name)
                    problem =
                        "'" + name + "' is a __constant__ symbol, which expressions cannot use";
            }
            fail(file, located.field, problem, expected);
        }
    }
}

// A launch argument exists for the launch: one no launch expression reads would be a parameter
// every caller passes for nothing (counts and constraints may read it too, but not only they).
void check_launch_arguments_used(const Spec& spec, const std::string& file) {
    std::vector<std::string> used;
    for (const Located& located : expressions(spec)) {
        if (!located.field.starts_with("launch.")) continue;
        for (const std::string& name : located.expression->names()) used.push_back(name);
    }
    for (std::size_t i = 0; i < spec.launch_arguments.size(); ++i) {
        const std::string& name = spec.launch_arguments[i].name;
        if (std::find(used.begin(), used.end(), name) != used.end()) continue;
        fail(file, "launch_arguments[" + std::to_string(i) + "].name",
             "'" + name + "' is used by no launch expression",
             "a name that launch.block, launch.grid or launch.shared_memory_bytes uses (or no "
             "such launch argument)");
    }
}

void check_has_output(const Spec& spec, const std::string& file) {
    for (const Argument& argument : spec.arguments) {
        if (argument.is_pointer && argument.role != Role::Input) return;
    }
    fail(file, "arguments", "no argument is an output",
         "at least one pointer argument with \"role\": \"output\" or \"inout\" (what the check "
         "compares)");
}

std::string describe_config(const expr::Env& env) {
    std::string text;
    for (const auto& [name, value] : env)
        text += (text.empty() ? "" : ", ") + name + "=" + std::to_string(value);
    return text.empty() ? "no names" : text;
}

// Fails on the expression's own field at the main size; at an extra size, on that size's entry.
struct FailAt {
    const std::string& file;
    const ProblemSize* size;
    const std::string& size_field;
    [[noreturn]] void operator()(const Located& located, const std::string& problem,
                                 const std::string& expected) const {
        if (!size) fail(file, located.field, problem, expected);
        const bool tuned = size_field.starts_with("problems");
        fail(file, size_field, located.field + ": " + problem,
             expected + (tuned ? ", at every problem the spec lists"
                               : ", at every size in check.extra_sizes"));
    }
};

// Evaluates every expression with the default configuration, at the main problem size or at
// `size`, and checks its range. Problems at an extra size are reported on `size_field` (the
// size's entry), naming the expression's own field in the message.
void check_default_configuration(const Spec& spec, const std::string& file,
                                 const ProblemSize* size = nullptr,
                                 const std::string& size_field = "") {
    const expr::Env env = spec.environment(spec.default_config(), size);
    const std::string defaults = " with the default configuration (" + describe_config(env) + ")";
    const FailAt fail_at{file, size, size_field};
    const auto evaluate = [&](const Located& located) {
        try {
            return located.expression->eval(env);
        } catch (const expr::ExprError& error) {
            fail_at(located,
                    "'" + located.expression->text() + "' fails" + defaults + ": " + error.what(),
                    "an expression that evaluates for the defaults (the original kernel)");
        }
    };
    std::array<std::int64_t, 3> block{};
    for (const Located& located : expressions(spec)) {
        const std::int64_t value = evaluate(located);
        const std::string& text = located.expression->text();
        const std::string result = "'" + text + "' is " + std::to_string(value) + defaults;
        if (located.field.starts_with("constraints")) {
            if (value == 0) {
                fail_at(located, "'" + text + "' is false" + defaults,
                        "the defaults (the original kernel) to satisfy every constraint");
            }
        } else if (located.field == "launch.shared_memory_bytes") {
            if (value < 0) fail_at(located, result, "a number of bytes >= 0");
        } else if (value < 1) {
            fail_at(located, result,
                    located.field.starts_with("launch") ? "at least 1" : "at least 1 element");
        }
        for (std::size_t d = 0; d < 3; ++d) {
            if (located.expression == &spec.launch.block[d]) block[d] = value;
        }
    }
    // Each dimension is >= 1 here; dividing avoids overflowing the product.
    if (block[0] > kMaxThreadsPerBlock / block[1] / block[2]) {
        fail_at({"launch.block", nullptr},
                std::to_string(block[0]) + " x " + std::to_string(block[1]) + " x " +
                    std::to_string(block[2]) + " threads per block" + defaults,
                "at most " + std::to_string(kMaxThreadsPerBlock) + " threads per block");
    }
}

// A "file" fill's data cannot change: the file must hold the entry's type, and exactly as many
// elements as its count asks for at the spec's size and at every extra size.
void check_file_fills(const Spec& spec, const std::string& file) {
    struct Filled {
        std::string owner;  // "arguments[2]"
        ElementType type;
        const Fill* fill;
        const expr::Expr* count;
    };
    std::vector<Filled> filled;
    for (std::size_t i = 0; i < spec.arguments.size(); ++i) {
        const Argument& a = spec.arguments[i];
        if (a.is_pointer && a.role != Role::Output && a.fill.kind == Fill::Kind::File)
            filled.push_back({"arguments[" + std::to_string(i) + "]", a.type, &a.fill, &a.count});
    }
    for (std::size_t i = 0; i < spec.constants.size(); ++i) {
        const ConstantSymbol& c = spec.constants[i];
        if (c.fill.kind == Fill::Kind::File)
            filled.push_back({"constants[" + std::to_string(i) + "]", c.type, &c.fill, &c.count});
    }
    for (const Filled& entry : filled) {
        DataFileLayout layout;
        try {
            layout = inspect_data_file(entry.fill->file.path, entry.fill->file.as_written,
                                       entry.type, entry.owner);
        } catch (const DataFileError& error) {
            fail(file, entry.owner + ".fill.path", error.what(), error.fix());
        }
        const auto check_at = [&](const ProblemSize* size, const std::string& field) {
            const expr::Env env = spec.environment(spec.default_config(), size);
            const std::int64_t count = entry.count->eval(env);
            if (count >= 0 && static_cast<std::uint64_t>(count) == layout.element_count) return;
            const std::string problem =
                (size ? entry.owner + ".count: '" : "'") + entry.count->text() + "' is " +
                std::to_string(count) + " with the default configuration (" + describe_config(env) +
                ") but " + entry.fill->file.as_written + " " + describe_contents(layout);
            fail(file, field, problem,
                 size ? "a size at which the count equals the file's elements (a file's data "
                        "cannot change with the problem size)"
                      : "a count equal to the file's elements, or a file with that many");
        };
        check_at(nullptr, entry.owner + ".count");
        for (std::size_t i = 0; i < spec.check.extra_sizes.size(); ++i)
            check_at(&spec.check.extra_sizes[i], "check.extra_sizes[" + std::to_string(i) + "]");
    }
}

}  // namespace

void validate(const Spec& spec, const std::string& file) {
    check_unique_names(spec, file);
    check_names_known(spec, file);
    check_launch_arguments_used(spec, file);
    check_has_output(spec, file);
    check_default_configuration(spec, file);
    for (std::size_t i = 0; i < spec.check.extra_sizes.size(); ++i) {
        check_default_configuration(spec, file, &spec.check.extra_sizes[i],
                                    "check.extra_sizes[" + std::to_string(i) + "]");
    }
    for (std::size_t i = 0; i < spec.problems.size(); ++i)
        check_default_configuration(spec, file, &spec.problems[i],
                                    "problems[" + std::to_string(i) + "]");
    check_file_fills(spec, file);
}

}  // namespace optiml::spec::detail
