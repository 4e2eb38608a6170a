#include "driver/init/detail/captured_spec.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "driver/init/detail/argument_types.h"
#include "driver/init/detail/template_arguments.h"
#include "driver/init/spec_skeleton.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"
#include "driver/source/tunable_knobs.h"

namespace optiml::init {
namespace {

using profile::activity::CapturedLaunch;
using profile::activity::CapturedParameter;

std::string quoted_text(const std::string& text) {
    return nlohmann::json(text).dump();
}

std::string dim3_text(const std::array<std::uint32_t, 3>& dim) {
    return "[" + std::to_string(dim[0]) + ", " + std::to_string(dim[1]) + ", " +
           std::to_string(dim[2]) + "]";
}

template <typename T>
std::string shortest(T value) {
    char text[64];
    const auto [end, error] = std::to_chars(text, text + sizeof(text), value);
    return error == std::errc() ? std::string(text, end) : std::to_string(value);
}

// The scalar's value as JSON number text, or nullopt with `why`.
std::optional<std::string> scalar_text(const std::string& bytes, spec::ElementType type,
                                       std::string& why) {
    if (bytes.size() != spec::size_of(type)) {
        why = "the launch passed " + std::to_string(bytes.size()) + " bytes for it, but " +
              spec::to_string(type) + " has " + std::to_string(spec::size_of(type));
        return std::nullopt;
    }
    if (type == spec::ElementType::Float32 || type == spec::ElementType::Float64) {
        double value = 0;
        if (type == spec::ElementType::Float32) {
            float single = 0;
            std::memcpy(&single, bytes.data(), sizeof(single));
            if (std::isfinite(single)) return shortest(single);  // reads back as this float
            why = "the launch passed " + shortest(single);
            return std::nullopt;
        }
        std::memcpy(&value, bytes.data(), sizeof(value));
        if (!std::isfinite(value)) {
            why = "the launch passed " + shortest(value);
            return std::nullopt;
        }
        return shortest(value);
    }
    std::uint64_t raw = 0;
    for (std::size_t i = bytes.size(); i-- > 0;)
        raw = (raw << 8) | static_cast<unsigned char>(bytes[i]);
    if (spec::is_signed_integer(type)) {
        const unsigned bits = static_cast<unsigned>(8 * bytes.size());
        if (bits < 64 && (raw >> (bits - 1)) != 0) raw |= ~std::uint64_t{0} << bits;  // extend
        return std::to_string(static_cast<std::int64_t>(raw));
    }
    if (raw > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        why = "the launch passed " + std::to_string(raw) +
              ", above 2^63 - 1, which a spec cannot hold";
        return std::nullopt;
    }
    return std::to_string(raw);
}

struct Scalar {
    std::string name;
    std::int64_t value = 0;
};

// `elements` as an integer scalar that holds it, a product of two, or the number.
std::string count_expression(std::uint64_t elements, const std::vector<Scalar>& scalars) {
    const auto wanted = static_cast<std::int64_t>(elements);
    for (const Scalar& s : scalars)
        if (s.value == wanted) return s.name;
    for (std::size_t a = 0; a < scalars.size(); ++a)
        for (std::size_t b = a + 1; b < scalars.size(); ++b)
            if (scalars[a].value > 0 && scalars[b].value > 0 &&
                scalars[a].value <= wanted / scalars[b].value &&
                scalars[a].value * scalars[b].value == wanted)
                return scalars[a].name + " * " + scalars[b].name;
    return std::to_string(elements);
}

// For a >= 0 and b > 0, without the overflow of (a + b - 1) / b near 2^63.
std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
    return a / b + (a % b != 0 ? 1 : 0);
}

// What the file's code says of each axis's block: whether the kernel's body reads
// blockDim.<axis>, and whether the file names block_size_<axis> anywhere (a -D of that name would
// rewrite it). One pass over the tokens.
struct BlockAxes {
    std::array<bool, 3> reads_block_dim{};
    std::array<bool, 3> names_block_size{};
};

BlockAxes block_axes(std::string_view source, const source::KernelText& text) {
    BlockAxes axes;
    const std::vector<source::Token> code = source::code_tokens(source);
    const auto word = [&](std::size_t i) { return source::token_text(source, code[i]); };
    for (std::size_t i = 0; i < code.size(); ++i) {
        const bool in_body = code[i].begin >= text.body_begin && code[i].end <= text.body_end;
        for (std::size_t a = 0; a < 3; ++a) {
            const std::string axis(1, "xyz"[a]);
            if (word(i) == "block_size_" + axis) axes.names_block_size[a] = true;
            if (in_body && word(i) == "blockDim" && i + 2 < code.size() && word(i + 1) == "." &&
                word(i + 2) == axis)
                axes.reads_block_dim[a] = true;
        }
    }
    return axes;
}

// A kernel without a block_size_<axis> macro whose body reads blockDim.<axis> takes whatever
// block it is launched with in that axis: its threads per block there become a launch-only
// parameter, the block launched its default. Only an axis of more than one block, in a launch
// without dynamic shared memory (which usually scales with the block), whose source never names
// block_size_<axis> (it arrives as -D); only sizes that divide the axis's threads launched, so
// every variant runs the threads the program ran. A kernel that cannot take another size fails
// verification there and keeps its own.
std::optional<LaunchParameter> launch_only_block_size(const CapturedLaunch& launch,
                                                      const BlockAxes& axes,
                                                      std::size_t axis_index) {
    const std::string axis(1, "xyz"[axis_index]);
    const std::string name = "block_size_" + axis;
    // A block of no threads (a launch that failed, or a damaged capture file) has no sizes that
    // divide it.
    if (launch.grid[axis_index] < 2 || launch.block[axis_index] < 1 ||
        launch.shared_memory_bytes != 0)
        return std::nullopt;
    if (!axes.reads_block_dim[axis_index] || axes.names_block_size[axis_index]) return std::nullopt;
    const long long block = launch.block[axis_index];
    // Two 32-bit factors: the product fits 64 bits unsigned.
    const std::uint64_t threads = std::uint64_t{launch.block[axis_index]} * launch.grid[axis_index];
    LaunchParameter parameter{name, {}, block, {}};
    for (const long long v : block_size_values(block))
        if (threads % static_cast<std::uint64_t>(v) == 0) parameter.values.push_back(v);
    if (parameter.values.size() < 2) return std::nullopt;
    parameter.comments.push_back(
        name + ": launch only. The kernel has no " + name + " macro but reads blockDim." + axis +
        ", so its threads per block in " + axis + " are tuned through the launch: the " +
        std::to_string(block) +
        " launched is the original; the others divide the threads launched. A size the kernel "
        "cannot take fails verification and is dropped; delete this entry (and write the block "
        "and grid launched) to keep the block fixed.");
    return parameter;
}

// An integer template parameter at the value the launch instantiated, as the spec tunes it.
struct TemplateValue {
    std::string source_name;  // BLOCK_SIZE
    std::string tuned;        // block_size (the spec's parameter)
    long long value = 0;
};

std::vector<TemplateValue> template_values(std::string_view source, const source::KernelText& text,
                                           const std::vector<std::string>& launched) {
    const auto parameters = source::template_parameters(source, text);
    std::vector<TemplateValue> values;
    if (launched.size() != parameters.size()) return values;
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const source::TemplateParameter& p = parameters[i];
        const auto value = source::integer_literal(launched[i]);
        if (value && !p.name.empty() && p.kind != "typename" && p.kind != "class" &&
            (p.default_value.empty() || p.integer_default))
            values.push_back({p.name, tuned_template_name(p, source), *value});
    }
    return values;
}

// launch.block, grid and shared memory from the captured geometry. An axis whose threads per
// block are the kernel's block_size_<axis> default, else the value of an integer template
// parameter the launch instantiated (`MatrixMulCUDA<32>` on 32 x 32 blocks), else a launch-only
// block size, is tuned: the block is that parameter and the grid follows it (as ceil_div of an
// integer scalar when one gives the captured grid, else of the threads launched).
void map_geometry(const CapturedLaunch& launch, std::string_view source,
                  const source::KernelText& text, const std::vector<Scalar>& scalars,
                  const std::vector<TemplateValue>& template_values, ObservedLaunch& observed) {
    std::map<std::string, long long> knobs;
    for (const source::MacroDefault& macro : source::macro_defaults(source))
        if (macro.integer) knobs[macro.name] = *macro.integer;
    std::array<std::string, 3> block_knob;  // per axis, the parameter its block is
    const BlockAxes axes = block_axes(source, text);
    for (std::size_t i = 0; i < 3; ++i) {
        const std::string axis(1, "xyz"[i]);
        const std::string macro = "block_size_" + axis;
        if (knobs.contains(macro)) {
            block_knob[i] = macro;
            continue;
        }
        // One block of threads is no evidence: every kernel can be launched that way.
        const auto tied = std::find_if(template_values.begin(), template_values.end(),
                                       [&](const TemplateValue& t) {
                                           return launch.block[i] > 1 && t.value == launch.block[i];
                                       });
        if (tied != template_values.end()) {
            block_knob[i] = observed.block_parameters[i] = tied->tuned;
            knobs[tied->tuned] = tied->value;
            observed.launch_comments.push_back(
                "block " + axis + ": " + tied->tuned + ", the template argument " +
                tied->source_name + " the program instantiated (" + std::to_string(tied->value) +
                ") and launched as its threads in " + axis + ".");
            continue;
        }
        if (auto parameter = launch_only_block_size(launch, axes, i)) {
            block_knob[i] = parameter->name;
            knobs[parameter->name] = parameter->default_value;
            observed.launch_parameters.push_back(std::move(*parameter));
        }
    }
    for (std::size_t i = 0; i < 3; ++i) {
        const std::string axis(1, "xyz"[i]);
        const std::string& macro = block_knob[i];
        const std::int64_t block = launch.block[i];
        const std::int64_t grid = launch.grid[i];
        observed.block[i] = quoted_text(std::to_string(block));
        observed.grid[i] = quoted_text(std::to_string(grid));
        if (macro.empty()) continue;
        const auto knob = knobs.find(macro);
        if (knob->second != block) {
            observed.launch_comments.push_back(
                macro + "'s default is " + std::to_string(knob->second) + " but the program " +
                "launched " + std::to_string(block) + " threads in " + axis +
                ": the block is fixed at what it launched (make the launch use " + macro +
                " to tune it).");
            continue;
        }
        if (block < 1) continue;  // no threads (a macro defaulting to 0): nothing follows it
        observed.block[i] = quoted_text(macro);
        if (grid == 1) {
            observed.launch_comments.push_back("grid " + axis + ": the program launched one " +
                                               "block in " + axis + ", whatever its size.");
            continue;
        }
        const Scalar* follows = nullptr;
        for (const Scalar& s : scalars)
            if (s.value > 0 && ceil_div(s.value, block) == grid && !follows) follows = &s;
        if (follows != nullptr) {
            observed.grid[i] = quoted_text("ceil_div(" + follows->name + ", " + macro + ")");
            observed.launch_comments.push_back("grid " + axis + ": ceil_div(" + follows->name +
                                               ", " + macro + ") is the " + std::to_string(grid) +
                                               " blocks the program launched (" + follows->name +
                                               " = " + std::to_string(follows->value) + ").");
        } else {
            const std::uint64_t threads = std::uint64_t{launch.grid[i]} * launch.block[i];
            observed.grid[i] =
                quoted_text("ceil_div(" + std::to_string(threads) + ", " + macro + ")");
            observed.launch_comments.push_back(
                "grid " + axis + ": as many threads as the program launched (" +
                std::to_string(grid) + " x " + std::to_string(block) + "), whatever " + macro +
                "; no integer scalar gives the grid.");
        }
    }
    observed.shared_memory_bytes = quoted_text(std::to_string(launch.shared_memory_bytes));
    if (launch.shared_memory_bytes > 0)
        observed.launch_comments.push_back(
            "shared_memory_bytes: the " + std::to_string(launch.shared_memory_bytes) +
            " bytes the program asked for; write it as an expression of the parameters if it "
            "depends on them.");
}

// The sizes the program launched the kernel at, where its integer scalar arguments took more
// than one set of values (`scalars` the first launch's): each shape's values of those that vary,
// the most launched first, at most 16 (what a spec's problems hold), then by size.
void observe_problems(const CapturedLaunch& launch, const source::KernelText& text,
                      const std::vector<std::optional<spec::ElementType>>& types,
                      ObservedLaunch& observed) {
    struct Problem {
        std::vector<std::pair<std::string, std::int64_t>> values;  // every integer scalar's
        std::uint64_t launches = 0;
        std::string geometry;
    };
    std::vector<Problem> problems;
    for (const profile::activity::LaunchShape& shape : launch.shapes) {
        if (shape.values.size() != text.parameters.size()) return;
        Problem problem;
        for (std::size_t i = 0; i < text.parameters.size(); ++i) {
            const source::KernelParameter& p = text.parameters[i];
            if (p.is_pointer || p.name.empty() || !types[i] || spec::is_floating(*types[i]))
                continue;
            std::string why;
            const std::optional<std::string> value = scalar_text(shape.values[i], *types[i], why);
            if (!value) return;
            problem.values.emplace_back(p.name, std::stoll(*value));
        }
        problem.launches = shape.launches;
        problem.geometry = "grid " + dim3_text(shape.grid) + ", block " + dim3_text(shape.block);
        // Shapes that differ only in geometry or in other arguments are one size.
        const auto same = std::find_if(problems.begin(), problems.end(), [&](const Problem& p) {
            return p.values == problem.values;
        });
        if (same != problems.end()) {
            same->launches += problem.launches;
        } else {
            problems.push_back(problem);
        }
    }
    if (problems.size() < 2) return;
    std::stable_sort(problems.begin(), problems.end(),
                     [](const Problem& a, const Problem& b) { return a.launches > b.launches; });
    std::uint64_t left_out = launch.other_launches;
    const std::size_t sizes = problems.size();
    if (problems.size() > 16) {
        for (std::size_t i = 16; i < problems.size(); ++i) left_out += problems[i].launches;
        problems.resize(16);
    }
    const auto size = [](const Problem& p) {
        return spec::dispatch_size({{p.values.begin(), p.values.end()}});
    };
    std::stable_sort(problems.begin(), problems.end(),
                     [&](const Problem& a, const Problem& b) { return size(a) < size(b); });
    // Only the arguments that vary name a problem; the others keep their values.
    std::vector<bool> varies(problems.front().values.size(), false);
    for (const Problem& p : problems)
        for (std::size_t v = 0; v < varies.size(); ++v)
            varies[v] = varies[v] || p.values[v].second != problems.front().values[v].second;
    observed.problems_comments.push_back(
        "The program launched " + text.name + " at " + std::to_string(sizes) +
        " sizes: each is tuned, and the launcher dispatches among the winners by size");
    observed.problems_comments.push_back("(docs/spec.md#problems).");
    if (sizes > 16 || left_out > 0)
        observed.problems_comments.push_back("The 16 most launched are here; " +
                                             std::to_string(left_out) +
                                             " launches at other sizes are not.");
    for (const Problem& p : problems) {
        ObservedProblem problem;
        for (std::size_t v = 0; v < varies.size(); ++v)
            if (varies[v])
                problem.json += std::string(problem.json.empty() ? "{" : ", ") + "\"" +
                                p.values[v].first + "\": " + std::to_string(p.values[v].second);
        problem.json += "}";
        problem.comments.push_back(
            std::to_string(p.launches) +
            (p.launches == 1 ? " launch, the first at " : " launches, the first at ") + p.geometry);
        observed.problems.push_back(problem);
    }
}

}  // namespace

CapturedSpec captured_spec(std::string_view source, const std::string& source_path,
                           const std::string& kernel, const CapturedLaunch& launch,
                           const std::string& origin, const std::string& data_folder) {
    const source::KernelText text = source::find_kernel(source, kernel);
    // The instantiation launched fixes the template: its types type the arguments.
    const std::vector<std::string> launched = template_arguments(launch.demangled_name, kernel);
    const std::map<std::string, std::string> type_defaults = template_types(source, text, launched);
    const bool captured = launch.error.empty();
    if (captured && launch.parameters.size() != text.parameters.size()) {
        throw CaptureMismatch(
            "the launch of " + launch.name + " passed " + std::to_string(launch.parameters.size()) +
            " parameters, but " + kernel + " in " + source_path + " takes " +
            std::to_string(text.parameters.size()) + "; is it the kernel the program launches?");
    }
    CapturedSpec result;
    ObservedLaunch observed;
    observed.template_arguments = launched;
    observed.header.push_back("Captured from `" + origin + "`:");
    observed.header.push_back(
        "the first launch of " +
        (launch.demangled_name.empty() ? launch.name : launch.demangled_name) + ", grid " +
        dim3_text(launch.grid) + ", block " + dim3_text(launch.block) + ", " +
        std::to_string(launch.shared_memory_bytes) + " bytes of dynamic shared memory.");
    if (!captured)
        result.notes.push_back("its arguments were not captured (" + launch.error +
                               "); they keep their markers");
    if (!launch.snapshot_error.empty() && !data_folder.empty())
        result.notes.push_back("no snapshot of its data (" + launch.snapshot_error +
                               "): those inputs are filled at random");

    // Scalars first: counts and the grid are named by them.
    std::vector<Scalar> scalars;
    observed.arguments.resize(text.parameters.size());
    std::vector<std::optional<spec::ElementType>> types;
    for (std::size_t i = 0; i < text.parameters.size(); ++i) {
        const source::KernelParameter& p = text.parameters[i];
        types.push_back(element_type(resolved_base_type(p, type_defaults)));
        if (!captured || p.is_pointer) continue;
        const std::string name = p.name.empty() ? "arg" + std::to_string(i) : p.name;
        ObservedArgument& argument = observed.arguments[i];
        if (!types[i]) {
            argument.comments.push_back(
                "captured bytes: " + profile::activity::to_hex(launch.parameters[i].bytes) +
                " (not a spec type, so not decoded)");
            continue;
        }
        std::string why;
        if (const std::optional<std::string> value =
                scalar_text(launch.parameters[i].bytes, *types[i], why)) {
            argument.value = *value;
            if (!spec::is_floating(*types[i]) && !p.name.empty())
                scalars.push_back({p.name, std::stoll(*value)});
        } else {
            argument.comments.push_back("value: not taken from the launch: " + why + ".");
            result.notes.push_back(name + ": " + why);
        }
    }
    for (std::size_t i = 0; captured && i < text.parameters.size(); ++i) {
        const source::KernelParameter& p = text.parameters[i];
        if (!p.is_pointer) continue;
        const std::string name = p.name.empty() ? "arg" + std::to_string(i) : p.name;
        const CapturedParameter& parameter = launch.parameters[i];
        ObservedArgument& argument = observed.arguments[i];
        if (!parameter.allocation) {
            argument.comments.push_back("count: the launch passed 0x" +
                                        profile::activity::to_hex(parameter.bytes) +
                                        " (little-endian), which points into no device "
                                        "allocation the driver knows (null, host memory?).");
            result.notes.push_back(name + ": the pointer is not into device memory");
            continue;
        }
        const std::uint64_t bytes = parameter.allocation->bytes_from_pointer();
        if (!types[i]) continue;  // the skeleton already asks for its type
        const std::uint64_t elements = bytes / spec::size_of(*types[i]);
        if (elements == 0 ||
            elements > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            result.notes.push_back(name + ": its allocation holds no whole element");
            continue;
        }
        argument.count = count_expression(elements, scalars);
        argument.comments.push_back("count: " + std::to_string(elements) +
                                    " elements lie between the pointer and the end " +
                                    "of its allocation (" + std::to_string(bytes) + " bytes of " +
                                    std::to_string(parameter.allocation->size) +
                                    "); a kernel may use fewer.");
        if (!parameter.snapshot.empty() && !data_folder.empty()) {
            const std::string to = data_folder + "/" + name + ".bin";
            argument.fill_path = to;
            argument.comments.push_back("fill: the data it held just before the launch.");
            result.snapshots.push_back({name, parameter.snapshot, to, *types[i], elements});
        }
    }
    map_geometry(launch, source, text, scalars, template_values(source, text, launched), observed);
    if (captured) observe_problems(launch, text, types, observed);
    result.text = spec_skeleton(source, source_path, kernel, &observed);
    return result;
}

}  // namespace optiml::init
