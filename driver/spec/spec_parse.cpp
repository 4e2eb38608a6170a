// Reads each spec field into a Spec, checking types, ranges and unknown fields; checks that
// span several fields live in spec_validate.cpp.
#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "driver/spec/detail/json_field.h"
#include "driver/spec/detail/spec_internal.h"

namespace optiml::spec::detail {
namespace {

const char* const kIdentifier =
    "a C++ identifier (letters, digits and '_', not starting with a digit, not a keyword)";
const char* const kTypeNames =
    "one of int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32 or float64";
const char* const kExpression =
    "an integer expression: a string such as \"ceil_div(n, block_size_x)\" or an integer";
const char* const kRelativePath = "a path relative to the spec file";

std::string read_identifier(const Field& field) {
    const std::string name = field.string(kIdentifier);
    if (!is_identifier(name)) field.fail("\"" + name + "\" is not a C++ identifier", kIdentifier);
    if (is_cpp_keyword(name)) field.fail("\"" + name + "\" is a C++ keyword", kIdentifier);
    if (name.starts_with("__") ||
        (name.size() > 1 && name[0] == '_' && std::isupper(static_cast<unsigned char>(name[1])))) {
        field.fail("\"" + name + "\" is reserved for the compiler",
                   "a name not starting with '__' or '_' and a capital letter");
    }
    return name;
}

// Names of things expressions may refer to (and arguments, constants): not the expression
// language's own function names.
std::string read_declared_name(const Field& field) {
    const std::string name = read_identifier(field);
    if (name == "ceil_div" || name == "min" || name == "max") {
        field.fail("\"" + name + "\" is a function of the expression language", "another name");
    }
    return name;
}

ElementType read_type(const Field& field) {
    const std::string name = field.string(kTypeNames);
    const std::optional<ElementType> type = parse_element_type(name);
    if (!type) field.fail("unknown type \"" + name + "\"", kTypeNames);
    return *type;
}

// Integer element types: the values a spec may give (uint64 is limited to int64's range because
// integer scalars also take part in int64 expressions).
std::pair<std::int64_t, std::int64_t> integer_range(ElementType type) {
    switch (type) {
        case ElementType::Int8:
            return {-128, 127};
        case ElementType::Int16:
            return {-32768, 32767};
        case ElementType::Int32:
            return {std::numeric_limits<std::int32_t>::min(),
                    std::numeric_limits<std::int32_t>::max()};
        case ElementType::UInt8:
            return {0, 255};
        case ElementType::UInt16:
            return {0, 65535};
        case ElementType::UInt32:
            return {0, std::numeric_limits<std::uint32_t>::max()};
        case ElementType::UInt64:
            return {0, std::numeric_limits<std::int64_t>::max()};
        default:
            break;
    }
    return {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
}

std::string fits_text(ElementType type) {
    const auto [low, high] = integer_range(type);
    return "an integer that fits " + to_string(type) + " (" + std::to_string(low) + " to " +
           std::to_string(high) + ")";
}

std::int64_t read_integer_of_type(const Field& field, ElementType type) {
    const std::string expected = fits_text(type);
    const std::int64_t value = field.integer(expected);
    const auto [low, high] = integer_range(type);
    if (value < low || value > high) field.fail_got(expected);
    return value;
}

// A fill number; for integer element types it must be an integer the type can hold.
double read_fill_number(const Field& field, ElementType type) {
    if (is_floating(type)) return field.number("a number");
    return static_cast<double>(read_integer_of_type(field, type));
}

double optional_fill_number(const Field& fill, std::string_view key, ElementType type,
                            double fallback) {
    const std::optional<Field> field = fill.optional(key);
    return field ? read_fill_number(*field, type) : fallback;
}

double optional_number(const Field& fill, std::string_view key, const std::string& expected,
                       double fallback) {
    const std::optional<Field> field = fill.optional(key);
    return field ? field->number(expected) : fallback;
}

// iota's step: for integer types any integer (negative counts down), else any number.
double read_step(const Field& fill, ElementType type) {
    const std::optional<Field> step = fill.optional("step");
    if (!step) return 1.0;
    if (is_floating(type)) return step->number("a number");
    return static_cast<double>(step->integer("an integer"));
}

// A path that must name an existing file or directory below the spec's folder.
std::string read_relative_path(const Field& field, const std::filesystem::path& base,
                               bool directory) {
    const std::string expected =
        std::string(directory ? "an existing directory, " : "an existing file, ") + kRelativePath;
    const std::string text = field.string(expected);
    if (text.empty()) field.fail("got an empty string", expected);
    const std::filesystem::path path(text);
    if (path.is_absolute())
        field.fail("\"" + text +
                       "\" is absolute (the cache key must not depend on where the project lives)",
                   expected);
    const std::filesystem::path resolved = (base / path).lexically_normal();
    std::error_code error;
    const bool exists = directory ? std::filesystem::is_directory(resolved, error)
                                  : std::filesystem::is_regular_file(resolved, error);
    if (!exists)
        field.fail("\"" + text + "\" not found (looked for " + resolved.string() + ")", expected);
    return text;
}

Fill read_fill(const Field& field, ElementType type, std::uint64_t default_seed,
               const std::filesystem::path& base) {
    field.expect_object(
        "an object such as {\"kind\": \"uniform\", \"min\": -1, \"max\": 1, \"seed\": 1}");
    const char* const kinds = "one of uniform, normal, constant, iota, file or generator";
    const Field kind_field = field.required("kind", kinds);
    const std::string kind = kind_field.string(kinds);
    Fill fill;
    fill.seed = default_seed;
    if (kind == "uniform") {
        field.allow_only({"kind", "min", "max", "seed"});
        fill.kind = Fill::Kind::Uniform;
        fill.a = optional_fill_number(field, "min", type, 0.0);
        fill.b = optional_fill_number(field, "max", type, 1.0);
        if (fill.b < fill.a) {
            (field.has("max") ? field.child("max") : field)
                .fail("max is below min (" + nlohmann::json(fill.a).dump() + ")", "max >= min");
        }
    } else if (kind == "normal") {
        field.allow_only({"kind", "mean", "stddev", "seed"});
        fill.kind = Fill::Kind::Normal;
        fill.a = optional_number(field, "mean", "a number", 0.0);
        fill.b = optional_number(field, "stddev", "a number >= 0", 1.0);
        if (fill.b < 0) field.child("stddev").fail_got("a number >= 0");
    } else if (kind == "constant") {
        field.allow_only({"kind", "value"});
        fill.kind = Fill::Kind::Constant;
        fill.a = read_fill_number(
            field.required("value", is_floating(type) ? "a number" : fits_text(type)), type);
        fill.b = 0.0;
    } else if (kind == "iota") {
        field.allow_only({"kind", "start", "step"});
        fill.kind = Fill::Kind::Iota;
        fill.a = optional_fill_number(field, "start", type, 0.0);
        fill.b = read_step(field, type);
    } else if (kind == "file") {
        field.allow_only({"kind", "path"});
        fill.kind = Fill::Kind::File;
        fill.file.as_written = read_relative_path(
            field.required("path", std::string("a raw or .npy data file, ") + kRelativePath), base,
            false);
        fill.file.path = (base / fill.file.as_written).lexically_normal();
    } else if (kind == "generator") {
        // No seed: the generator gets each trial's own, and several entries share one call.
        field.allow_only({"kind", "source"});
        fill.kind = Fill::Kind::Generator;
        fill.generator.as_written = read_relative_path(
            field.required("source",
                           std::string("a C++ source defining optiml_generate, ") + kRelativePath),
            base, false);
        fill.generator.path = (base / fill.generator.as_written).lexically_normal();
    } else {
        kind_field.fail("unknown fill kind \"" + kind + "\"", kinds);
    }
    if (const std::optional<Field> seed = field.optional("seed")) {
        fill.seed = seed->unsigned_integer("a non-negative integer");
    }
    return fill;
}

Role read_role(const Field& field) {
    const char* const roles = "one of input, output or inout";
    const std::string role = field.string(roles);
    if (role == "input") return Role::Input;
    if (role == "output") return Role::Output;
    if (role == "inout") return Role::InOut;
    field.fail("unknown role \"" + role + "\"", roles);
}

Argument read_argument(const Field& field, std::size_t index, const std::filesystem::path& base) {
    field.expect_object(
        "an object with name, type and either value (a scalar) or \"pointer\": true and count (an "
        "array)");
    Argument argument;
    argument.name = read_declared_name(field.required("name", kIdentifier));
    argument.type = read_type(field.required("type", kTypeNames));
    if (const std::optional<Field> pointer = field.optional("pointer")) {
        argument.is_pointer =
            pointer->boolean("true (an array in device memory) or false (a scalar)");
    }
    if (argument.is_pointer) {
        if (field.has("value")) {
            field.child("value").fail("a pointer argument has no value",
                                      "\"count\" and \"fill\" to describe the array");
        }
        field.allow_only({"name", "type", "pointer", "count", "role", "fill"});
        const char* const count = "the number of elements, as ";
        argument.count = expression(field.required("count", std::string(count) + kExpression),
                                    std::string(count) + kExpression);
        if (const std::optional<Field> role = field.optional("role"))
            argument.role = read_role(*role);
        if (const std::optional<Field> fill = field.optional("fill")) {
            if (argument.role == Role::Output) {
                fill->fail("an output argument has no fill (the kernel writes it)",
                           "role \"inout\" if the kernel reads the initial contents, or no fill");
            }
            argument.fill = read_fill(*fill, argument.type, index + 1, base);
        } else {
            argument.fill.seed = index + 1;
        }
        return argument;
    }
    for (const std::string key : {"count", "role", "fill"}) {
        if (field.has(key)) {
            field.child(key).fail(
                "only pointer arguments have a " + key,
                "\"pointer\": true for an array, or no \"" + key + "\" for a scalar");
        }
    }
    field.allow_only({"name", "type", "pointer", "value"});
    const std::string expected =
        "the value used while tuning: " +
        (is_floating(argument.type) ? std::string("a number") : fits_text(argument.type));
    const Field value = field.required("value", expected);
    if (is_floating(argument.type)) {
        argument.value = value.number(expected);
    } else {
        argument.integer_value = read_integer_of_type(value, argument.type);
        argument.value = static_cast<double>(argument.integer_value);
    }
    return argument;
}

LaunchArgument read_launch_argument(const Field& field) {
    field.expect_object(
        "an object with name, type and value, e.g. {\"name\": \"height\", "
        "\"type\": \"int32\", \"value\": 1024}");
    field.allow_only({"name", "type", "value"});
    LaunchArgument argument;
    argument.name = read_declared_name(field.required("name", kIdentifier));
    const Field type = field.required("type", kTypeNames);
    argument.type = read_type(type);
    if (is_floating(argument.type)) {
        type.fail("a launch argument cannot be " + to_string(argument.type) +
                      " (launch expressions are integer)",
                  "an integer type: int8, int16, int32, int64, uint8, uint16, uint32 or uint64");
    }
    argument.value = read_integer_of_type(
        field.required("value", "the value used while tuning: " + fits_text(argument.type)),
        argument.type);
    return argument;
}

// Launch arguments as scalar arguments: check.extra_sizes may give either other values.
std::vector<Argument> sizable_scalars(const Spec& spec) {
    std::vector<Argument> scalars = spec.arguments;
    for (const LaunchArgument& launch_argument : spec.launch_arguments) {
        Argument argument;
        argument.name = launch_argument.name;
        argument.type = launch_argument.type;
        argument.integer_value = launch_argument.value;
        scalars.push_back(argument);
    }
    return scalars;
}

void read_dimensions(const Field& field, std::array<expr::Expr, 3>& dimensions) {
    const std::string expected = "an array of 1 to 3 expressions (x, y, z; missing ones are 1)";
    const std::vector<Field> items = field.items(expected);
    if (items.empty() || items.size() > 3)
        field.fail("got " + std::to_string(items.size()) + " items", expected);
    for (std::size_t i = 0; i < 3; ++i) {
        dimensions[i] =
            i < items.size() ? expression(items[i], kExpression) : expr::Expr::literal(1);
    }
}

Launch read_launch(const Field& field) {
    const char* const expected = "an object with block, grid and optionally shared_memory_bytes";
    field.expect_object(expected);
    field.allow_only({"block", "grid", "shared_memory_bytes"});
    Launch launch;
    read_dimensions(
        field.required("block", "the threads per block: an array of 1 to 3 expressions"),
        launch.block);
    read_dimensions(field.required("grid", "the blocks per grid: an array of 1 to 3 expressions"),
                    launch.grid);
    if (const std::optional<Field> shared = field.optional("shared_memory_bytes")) {
        launch.shared_memory_bytes = expression(*shared, kExpression);
    }
    return launch;
}

Parameter read_parameter(const Field& field) {
    field.expect_object("an object with name, values and default");
    field.allow_only({"name", "values", "default"});
    Parameter parameter;
    parameter.name = read_declared_name(field.required("name", kIdentifier));
    const char* const values_expected = "a non-empty array of distinct integers";
    const Field values = field.required("values", values_expected);
    const std::vector<Field> items = values.items(values_expected);
    if (items.empty()) values.fail("got an empty array", values_expected);
    for (const Field& item : items) {
        const std::int64_t value = item.integer("an integer");
        if (std::find(parameter.values.begin(), parameter.values.end(), value) !=
            parameter.values.end()) {
            item.fail("duplicate value " + std::to_string(value), values_expected);
        }
        parameter.values.push_back(value);
    }
    const char* const default_expected =
        "the value the kernel's own #ifndef default has, one of the values";
    const Field default_field = field.required("default", default_expected);
    parameter.default_value = default_field.integer(default_expected);
    if (std::find(parameter.values.begin(), parameter.values.end(), parameter.default_value) ==
        parameter.values.end()) {
        default_field.fail(std::to_string(parameter.default_value) + " is not one of the values " +
                               values.json().dump(),
                           default_expected);
    }
    return parameter;
}

ConstantSymbol read_constant(const Field& field, std::size_t index,
                             const std::filesystem::path& base) {
    field.expect_object("an object with name, type, count and optionally fill");
    field.allow_only({"name", "type", "count", "fill"});
    ConstantSymbol constant;
    constant.name = read_declared_name(field.required("name", kIdentifier));
    constant.type = read_type(field.required("type", kTypeNames));
    const std::string count = std::string("the number of elements, as ") + kExpression;
    constant.count = expression(field.required("count", count), count);
    const std::uint64_t seed = 1001 + index;
    if (const std::optional<Field> fill = field.optional("fill")) {
        constant.fill = read_fill(*fill, constant.type, seed, base);
    } else {
        constant.fill.seed = seed;
    }
    return constant;
}

std::vector<std::string> read_nvrtc_options(const Field& field,
                                            const std::vector<Parameter>& parameters) {
    std::vector<std::string> options;
    for (const Field& item : field.items("an array of strings")) {
        const std::string option = item.string("a string");
        if (option.starts_with("-arch") || option.starts_with("--gpu-architecture") ||
            option.starts_with("-gpu-architecture")) {
            item.fail("\"" + option + "\" sets the architecture, which OptiML chooses per target",
                      "no architecture option");
        }
        for (const std::string prefix : {"-D", "--define-macro="}) {
            if (!option.starts_with(prefix)) continue;
            const std::string macro =
                option.substr(prefix.size(), option.find('=', prefix.size()) - prefix.size());
            for (const Parameter& parameter : parameters) {
                if (parameter.name == macro) {
                    item.fail("\"" + option + "\" defines the tunable parameter " + macro,
                              "no -D for a parameter (OptiML defines each variant's values)");
                }
            }
        }
        options.push_back(option);
    }
    return options;
}

// An integer scalar argument by name, or null.
const Argument* integer_scalar(const std::vector<Argument>& arguments, const std::string& name) {
    for (const Argument& argument : arguments)
        if (argument.name == name && !argument.is_pointer && !is_floating(argument.type))
            return &argument;
    return nullptr;
}

// "n, m": the integer scalar arguments, for a message that names which a size may set.
std::string integer_scalar_names(const std::vector<Argument>& arguments) {
    std::vector<std::string> names;
    for (const Argument& argument : arguments)
        if (integer_scalar(arguments, argument.name)) names.push_back(argument.name);
    return join_or(names, "none are declared");
}

ProblemSize read_problem_size(const Field& field, const std::vector<Argument>& arguments,
                              bool may_be_main = false) {
    const std::string expected =
        "an object that gives integer scalar arguments other values, e.g. {\"n\": 1000003}";
    field.expect_object(expected);
    if (field.json().empty()) field.fail("got an empty object", expected);
    ProblemSize size;
    bool differs = false;
    for (const auto& item : field.json().items()) {
        const Field value = field.child(item.key());
        const Argument* argument = integer_scalar(arguments, item.key());
        if (!argument) {
            value.fail("'" + item.key() + "' is not an integer scalar argument",
                       "an integer scalar argument: " + integer_scalar_names(arguments));
        }
        const std::int64_t number = read_integer_of_type(value, argument->type);
        differs = differs || number != argument->integer_value;
        size.scalars[item.key()] = number;
    }
    if (!differs && !may_be_main)
        field.fail("this is the main problem size (every value equals the argument's own)",
                   "a size that differs from the arguments' values in at least one of them");
    return size;
}

std::vector<ProblemSize> read_extra_sizes(const Field& field,
                                          const std::vector<Argument>& arguments) {
    constexpr std::size_t kMaxExtraSizes = 8;
    const std::string expected = "an array of at most " + std::to_string(kMaxExtraSizes) +
                                 " objects such as {\"n\": 1000003}";
    const std::vector<Field> items = field.items(expected);
    if (items.size() > kMaxExtraSizes)
        field.fail("got " + std::to_string(items.size()) + " sizes", expected);
    std::vector<ProblemSize> sizes;
    for (std::size_t i = 0; i < items.size(); ++i) {
        ProblemSize size = read_problem_size(items[i], arguments);
        for (std::size_t j = 0; j < sizes.size(); ++j) {
            if (sizes[j].scalars == size.scalars)
                items[i].fail("the same size as extra_sizes[" + std::to_string(j) + "]",
                              "each size once");
        }
        sizes.push_back(std::move(size));
    }
    return sizes;
}

// The problems a kernel is tuned at: a list of sizes ({"n": 1024}, the arguments' own values
// among them or not), or {"powers_of_two": {"n": [lo, hi]}}, every power of two from lo to hi.
std::vector<ProblemSize> read_problems(const Field& field, const std::vector<Argument>& arguments) {
    constexpr std::size_t kMaxProblems = 16;
    const std::string most = std::to_string(kMaxProblems);
    const std::string expected = "an array of 2 to " + most +
                                 " sizes such as {\"n\": 1024}, or {\"powers_of_two\": "
                                 "{\"n\": [1024, 1048576]}}";
    std::vector<ProblemSize> problems;
    if (field.json().is_object()) {
        field.allow_only({"powers_of_two"});
        const Field range = field.required("powers_of_two", expected);
        const std::string range_expected =
            "one integer scalar argument and its bounds, e.g. {\"n\": [1024, 1048576]}";
        range.expect_object(range_expected);
        if (range.json().size() != 1) range.fail_got(range_expected);
        const std::string name = range.json().begin().key();
        const Field bounds = range.child(name);
        const Argument* argument = integer_scalar(arguments, name);
        if (!argument)
            bounds.fail("'" + name + "' is not an integer scalar argument",
                        "an integer scalar argument: " + integer_scalar_names(arguments));
        const std::vector<Field> ends = bounds.items("[lowest, highest]");
        if (ends.size() != 2) bounds.fail_got("[lowest, highest], two integers");
        const ElementType type = argument->type;
        const std::int64_t low = read_integer_of_type(ends[0], type);
        const std::int64_t high = read_integer_of_type(ends[1], type);
        if (low < 1) ends[0].fail_got("an integer >= 1");
        if (high <= low) ends[1].fail_got("an integer above the lowest, " + std::to_string(low));
        for (std::int64_t power = 1; power <= high && power > 0; power *= 2) {
            if (power < low) continue;
            problems.push_back(ProblemSize{{{name, power}}});
        }
        if (problems.size() < 2 || problems.size() > kMaxProblems)
            bounds.fail("holds " + std::to_string(problems.size()) + " powers of two",
                        "bounds holding 2 to " + most + " powers of two");
        return problems;
    }
    const std::vector<Field> items = field.items(expected);
    if (items.size() < 2 || items.size() > kMaxProblems)
        field.fail("got " + std::to_string(items.size()) + " sizes", expected);
    for (std::size_t i = 0; i < items.size(); ++i) {
        ProblemSize size = read_problem_size(items[i], arguments, true);
        for (std::size_t j = 0; j < problems.size(); ++j)
            if (problems[j].scalars == size.scalars)
                items[i].fail("the same size as problems[" + std::to_string(j) + "]",
                              "each size once");
        problems.push_back(std::move(size));
    }
    return problems;
}

Check read_check(const Field& field, const std::vector<Argument>& arguments,
                 const std::filesystem::path& base) {
    field.expect_object(
        "an object with rtol, atol, trials, deterministic, extra_sizes and compare");
    field.allow_only({"rtol", "atol", "trials", "deterministic", "extra_sizes", "compare"});
    Check check;
    for (const auto& [key, target] :
         {std::pair{"rtol", &check.rtol}, std::pair{"atol", &check.atol}}) {
        if (const std::optional<Field> value = field.optional(key)) {
            *target = value->number("a number >= 0");
            if (*target < 0) value->fail_got("a number >= 0");
        }
    }
    if (const std::optional<Field> value = field.optional("trials")) {
        const std::int64_t trials = value->integer("an integer from 1 to 100");
        if (trials < 1 || trials > 100) value->fail_got("an integer from 1 to 100");
        check.trials = static_cast<int>(trials);
    }
    if (const std::optional<Field> value = field.optional("deterministic"))
        check.deterministic = value->boolean("true or false");
    if (const std::optional<Field> value = field.optional("extra_sizes"))
        check.extra_sizes = read_extra_sizes(*value, arguments);
    if (const std::optional<Field> value = field.optional("compare")) {
        check.compare_as_written = read_relative_path(*value, base, false);
        check.compare = (base / check.compare_as_written).lexically_normal();
    }
    return check;
}

Timing read_timing(const Field& field) {
    field.expect_object("an object with cold_cache and decide_by");
    field.allow_only({"cold_cache", "decide_by"});
    Timing timing;
    if (const std::optional<Field> value = field.optional("cold_cache")) {
        const char* const expected = "\"flush\" or \"rotate\"";
        const std::string text = value->string(expected);
        if (text == "rotate")
            timing.cold_cache = ColdCache::Rotate;
        else if (text != "flush")
            value->fail("unknown method \"" + text + "\"", expected);
    }
    if (const std::optional<Field> value = field.optional("decide_by")) {
        const char* const expected =
            "\"cold\" (L2 emptied before each run) or \"warm\" "
            "(back-to-back launches)";
        const std::string text = value->string(expected);
        if (text == "warm")
            timing.decide_by = TimingCondition::Warm;
        else if (text != "cold")
            value->fail("unknown condition \"" + text + "\"", expected);
    }
    return timing;
}

Budget read_budget(const Field& field) {
    field.expect_object("an object with evaluations, seconds and strategy");
    field.allow_only({"evaluations", "seconds", "strategy"});
    Budget budget;
    if (const std::optional<Field> evaluations = field.optional("evaluations")) {
        const char* const expected =
            "an integer >= 1 (variants to measure), or \"auto\" (fitted to the space)";
        if (evaluations->json().is_string()) {
            if (evaluations->string(expected) != "auto") evaluations->fail_got(expected);
        } else {
            const std::int64_t value = evaluations->integer(expected);
            if (value < 1 || value > std::numeric_limits<int>::max())
                evaluations->fail_got(expected);
            budget.evaluations = static_cast<int>(value);
        }
    }
    if (const std::optional<Field> seconds = field.optional("seconds")) {
        budget.seconds = seconds->number("a number > 0 (seconds of tuning)");
        if (!(budget.seconds > 0)) seconds->fail_got("a number > 0 (seconds of tuning)");
    }
    if (const std::optional<Field> strategy = field.optional("strategy")) {
        const std::string expected = "one of " + search_strategies_text();
        budget.strategy = strategy->string(expected);
        if (!is_search_strategy(budget.strategy))
            strategy->fail("unknown strategy \"" + budget.strategy + "\"", expected);
    }
    return budget;
}

std::string read_compiler(const Field& field) {
    const char* const expected = "one of auto, nvrtc, nvcc";
    std::string name = field.string(expected);
    if (std::find(kCompilers.begin(), kCompilers.end(), name) == kCompilers.end())
        field.fail("unknown compiler \"" + name + "\"", expected);
    return name;
}

// One generator per source the fills name, with the entries it fills, in the spec's order.
std::vector<Generator> collect_generators(const Spec& spec) {
    std::vector<Generator> generators;
    const auto add = [&](const std::string& name, const Fill& fill) {
        if (fill.kind != Fill::Kind::Generator) return;
        auto same = std::find_if(generators.begin(), generators.end(), [&](const Generator& g) {
            return g.source.path == fill.generator.path;
        });
        if (same == generators.end()) same = generators.insert(same, {fill.generator, {}});
        same->fills.push_back(name);
    };
    for (const Argument& argument : spec.arguments)
        if (argument.is_pointer && argument.role != Role::Output) add(argument.name, argument.fill);
    for (const ConstantSymbol& constant : spec.constants) add(constant.name, constant.fill);
    return generators;
}

template <typename T, typename Read>
std::vector<T> read_list(const Field& root, std::string_view key, const std::string& expected,
                         Read read) {
    std::vector<T> list;
    if (const std::optional<Field> field = root.optional(key)) {
        const std::vector<Field> items = field->items(expected);
        for (std::size_t i = 0; i < items.size(); ++i) list.push_back(read(items[i], i));
    }
    return list;
}

}  // namespace

void read_fields(const nlohmann::json& json, const std::string& file_label, Spec& spec) {
    const Field root = spec_root(json, file_label);
    root.allow_only({"name", "source", "kernel", "include_dirs", "arguments", "launch_arguments",
                     "launch", "parameters", "constraints", "constants", "nvrtc_options",
                     "compiler", "check", "timing", "budget", "problems"});
    const std::filesystem::path base = spec.file.parent_path();

    spec.name = read_identifier(root.required("name", kIdentifier));
    spec.source_as_written = read_relative_path(
        root.required("source", std::string("the kernel source file, ") + kRelativePath), base,
        false);
    spec.source = (base / spec.source_as_written).lexically_normal();
    spec.kernel = spec.name;
    if (const std::optional<Field> kernel = root.optional("kernel")) {
        const char* const expected =
            "the kernel's name or NVRTC name expression, e.g. \"gemm<float, 4>\"";
        spec.kernel = kernel->string(expected);
        if (spec.kernel.find_first_not_of(" \t\n") == std::string::npos)
            kernel->fail("got an empty name", expected);
    }
    spec.include_dirs = read_list<std::string>(
        root, "include_dirs", "an array of directories, each relative to the spec file",
        [&](const Field& item, std::size_t) { return read_relative_path(item, base, true); });

    const char* const arguments_expected = "an array of the kernel's arguments, in order";
    const Field arguments = root.required("arguments", arguments_expected);
    if (arguments.items(arguments_expected).empty())
        arguments.fail("got an empty array",
                       "at least one argument (the kernel's parameters, in order)");
    spec.arguments = read_list<Argument>(
        root, "arguments", arguments_expected,
        [&](const Field& item, std::size_t i) { return read_argument(item, i, base); });
    spec.launch_arguments = read_list<LaunchArgument>(
        root, "launch_arguments",
        "an array of scalars the launch uses but the kernel does not take",
        [](const Field& item, std::size_t) { return read_launch_argument(item); });
    spec.launch = read_launch(
        root.required("launch", "an object with block, grid and optionally shared_memory_bytes"));
    spec.parameters =
        read_list<Parameter>(root, "parameters", "an array of tunable parameters",
                             [](const Field& item, std::size_t) { return read_parameter(item); });
    spec.constraints = read_list<expr::Expr>(
        root, "constraints", "an array of expressions",
        [](const Field& item, std::size_t) { return expression(item, kExpression); });
    spec.constants = read_list<ConstantSymbol>(
        root, "constants", "an array of __constant__ symbols",
        [&](const Field& item, std::size_t i) { return read_constant(item, i, base); });
    if (const std::optional<Field> options = root.optional("nvrtc_options"))
        spec.nvrtc_options = read_nvrtc_options(*options, spec.parameters);
    if (const std::optional<Field> compiler = root.optional("compiler"))
        spec.compiler = read_compiler(*compiler);
    if (const std::optional<Field> check = root.optional("check"))
        spec.check = read_check(*check, sizable_scalars(spec), base);
    if (const std::optional<Field> problems = root.optional("problems"))
        spec.problems = read_problems(*problems, sizable_scalars(spec));
    if (const std::optional<Field> timing = root.optional("timing"))
        spec.timing = read_timing(*timing);
    if (const std::optional<Field> budget = root.optional("budget"))
        spec.budget = read_budget(*budget);
    spec.generators = collect_generators(spec);
}

}  // namespace optiml::spec::detail
