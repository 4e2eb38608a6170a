// The skeleton is written as text, not through a JSON library, so that every entry can carry
// the // comment that explains the decision it leaves (specs allow // comments).
#include "driver/init/spec_skeleton.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/init/detail/argument_types.h"
#include "driver/init/detail/template_arguments.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"
#include "driver/source/tunable_knobs.h"

namespace optiml::init {
namespace {

std::string quoted(const std::string& text) {
    return nlohmann::json(text).dump();
}

std::string todo(const std::string& what) {
    return quoted(std::string(spec::kUnfinishedMarker) + " " + what);
}

std::string join(const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
    return text;
}

// Lines of one JSON array, each element with its comment lines before it.
struct Entry {
    std::vector<std::string> comments;
    std::string json;
};

void write_array(std::string& out, const std::string& key, const std::vector<Entry>& entries,
                 bool last) {
    out += "  " + quoted(key) + ": [\n";
    for (std::size_t i = 0; i < entries.size(); ++i) {
        for (const std::string& comment : entries[i].comments) out += "    // " + comment + "\n";
        out += "    " + entries[i].json + (i + 1 < entries.size() ? "," : "") + "\n";
    }
    out += std::string("  ]") + (last ? "" : ",") + "\n";
}

bool is_block_size(const std::string& name) {
    return name == "block_size_x" || name == "block_size_y" || name == "block_size_z";
}

struct Knobs {
    std::vector<source::MacroDefault> macros;  // integer defaults only
    std::vector<std::string> not_integers;     // "element_t (float)"
    bool has(const std::string& name) const {
        return std::any_of(macros.begin(), macros.end(),
                           [&](const source::MacroDefault& m) { return m.name == name; });
    }
};

Knobs read_knobs(std::string_view source) {
    Knobs knobs;
    for (source::MacroDefault& macro : source::macro_defaults(source)) {
        if (macro.integer)
            knobs.macros.push_back(std::move(macro));
        else
            knobs.not_integers.push_back(macro.name + " (" + macro.value + ")");
    }
    return knobs;
}

Entry argument_entry(const source::KernelParameter& parameter, std::size_t index,
                     const std::map<std::string, std::string>& type_defaults,
                     const std::string& size_hint, bool written, bool launched_types,
                     const ObservedArgument* observed) {
    const std::string name =
        parameter.name.empty() ? "arg" + std::to_string(index) : parameter.name;
    std::vector<std::string> notes;
    if (parameter.name.empty())
        notes.push_back("parameter " + std::to_string(index) + " has no name in the source: \"" +
                        name + "\" stands for it.");
    const std::string written_base = base_type(parameter);
    const std::string base = resolved_base_type(parameter, type_defaults);
    if (base != written_base)
        notes.push_back(written_base + " is a template parameter: " +
                        (launched_types ? "the program launched it as " + base + "."
                                        : "its default, " + base + ", is assumed."));
    const std::optional<spec::ElementType> type = element_type(base);
    const std::string type_json =
        type ? quoted(spec::to_string(*type))
             : todo("element type of " + name + " (" + base + " is not a spec element type)");
    Entry entry;
    std::string what = parameter.declaration + ": ";
    std::string fields = "{\"name\": " + quoted(name) + ", \"type\": " + type_json;
    if (!parameter.is_pointer) {
        const bool known = observed != nullptr && !observed->value.empty();
        what += known ? "a scalar, at the value the program passed."
                      : "a scalar; give the value it has while tuning.";
        entry.json = fields + ", \"value\": " +
                     (known ? observed->value : todo("value of " + name + " while tuning")) + "}";
    } else {
        std::string role = quoted("input");
        if (parameter.pointee_const) {
            what +=
                "const, so read only: an input, filled uniform in [0, 1) unless a \"fill\" "
                "says otherwise (docs/spec.md, Fills).";
        } else if (!written) {
            // Samples often leave read-only pointers non-const (cuda-samples' matrixMul).
            what +=
                "not const, but the kernel never writes through it: an input, filled uniform in "
                "[0, 1) unless a \"fill\" says otherwise (docs/spec.md, Fills).";
        } else if (observed != nullptr) {
            what +=
                "written by the kernel: \"inout\" is right whether or not it reads what was "
                "there; \"output\" if it only writes it.";
            role = quoted("inout");
        } else {
            what +=
                "written by the kernel: \"output\" if it only writes it, \"inout\" if it "
                "also reads what was there.";
            role = todo("output or inout");
        }
        notes.push_back("count: its number of elements, an expression of integer scalars" +
                        size_hint + ".");
        const bool counted = observed != nullptr && !observed->count.empty();
        std::string fill;
        if (observed != nullptr && !observed->fill_path.empty())
            fill =
                ", \"fill\": {\"kind\": \"file\", \"path\": " + quoted(observed->fill_path) + "}";
        entry.json = fields + ", \"pointer\": true, \"count\": " +
                     (counted ? quoted(observed->count) : todo("element count of " + name)) +
                     ", \"role\": " + role + fill + "}";
    }
    entry.comments.push_back(what);
    entry.comments.insert(entry.comments.end(), notes.begin(), notes.end());
    if (observed != nullptr)
        entry.comments.insert(entry.comments.end(), observed->comments.begin(),
                              observed->comments.end());
    return entry;
}

Entry parameter_entry(const source::MacroDefault& macro) {
    const long long value = *macro.integer;
    Entry entry;
    const std::string where =
        "#ifndef default " + macro.value + " (line " + std::to_string(macro.line) + ")";
    if (is_block_size(macro.name)) {
        std::vector<std::string> values;
        for (long long v : block_size_values(value)) values.push_back(std::to_string(v));
        entry.comments.push_back(macro.name + ": " + where +
                                 "; powers of two around it, as Kernel Tuner tries block sizes.");
        entry.json = "{\"name\": " + quoted(macro.name) + ", \"values\": [" + join(values) +
                     "], \"default\": " + std::to_string(value) + "}";
        return entry;
    }
    entry.comments.push_back(macro.name + ": " + where +
                             "; add the values to try and remove the marker.");
    entry.json = "{\"name\": " + quoted(macro.name) + ", \"values\": [" + std::to_string(value) +
                 ", " + todo("more values of " + macro.name + " to try") +
                 "], \"default\": " + std::to_string(value) + "}";
    return entry;
}

// "kernel": the name expression. A named integer template parameter is tuned: the expression
// names it and the spec's parameter of that name gives its value (parameters arrive as -D, and
// NVRTC expands macros in name expressions). A type parameter is fixed at its default.
struct KernelName {
    std::string json;
    std::vector<std::string> comments;
    std::vector<Entry> parameters;  // the tuned template parameters
};

bool is_type_parameter(const source::TemplateParameter& p) {
    return p.kind == "typename" || p.kind == "class";
}

// A template parameter the launch instantiated at `launched`: that is the original. Sized blocks
// (`block`) try Kernel Tuner's block sizes; any other keeps the one value (and the source's
// default) until the user adds more, since nothing says which others the kernel can take.
Entry captured_template_parameter_entry(const source::TemplateParameter& p,
                                        const std::string& tuned, long long launched, bool block) {
    std::vector<long long> numbers =
        block ? block_size_values(launched) : std::vector<long long>{launched};
    if (!block && p.integer_default && *p.integer_default != launched)
        numbers.insert(numbers.begin() + (*p.integer_default < launched ? 0 : 1),
                       *p.integer_default);
    std::vector<std::string> values;
    for (long long v : numbers) values.push_back(std::to_string(v));
    Entry entry;
    entry.comments.push_back(
        "template parameter " + p.kind + " " + p.name + ": tuned as " + tuned + "; the program " +
        "launched " + std::to_string(launched) + ", the original." +
        (block ? " It is the threads per block: Kernel Tuner's block sizes around it."
               : " Add the values to try."));
    entry.json = "{\"name\": " + quoted(tuned) + ", \"values\": [" + join(values) +
                 "], \"default\": " + std::to_string(launched) + "}";
    return entry;
}

Entry template_parameter_entry(const source::TemplateParameter& p, const std::string& tuned) {
    Entry entry;
    if (p.integer_default) {
        const std::string value = std::to_string(*p.integer_default);
        entry.comments.push_back("template parameter " + p.kind + " " + p.name + " = " +
                                 p.default_value + ": tuned as " + tuned +
                                 "; add the values to try.");
        entry.json = "{\"name\": " + quoted(tuned) + ", \"values\": [" + value + ", " +
                     todo("more values of " + tuned + " to try") + "], \"default\": " + value + "}";
    } else {
        entry.comments.push_back("template parameter " + p.kind + " " + p.name +
                                 " has no default: tuned as " + tuned +
                                 "; give the values to try and the default (the value the "
                                 "program launches now).");
        entry.json = "{\"name\": " + quoted(tuned) + ", \"values\": [" +
                     todo("values of " + tuned + " to try") +
                     "], \"default\": " + todo("the value the program launches now") + "}";
    }
    return entry;
}

// The launched instantiation's arguments when a capture read them, one per parameter.
std::vector<std::string> launched_arguments(const std::vector<source::TemplateParameter>& params,
                                            const ObservedLaunch* observed) {
    if (observed == nullptr || observed->template_arguments.size() != params.size()) return {};
    return observed->template_arguments;
}

KernelName kernel_name(const std::string& kernel,
                       const std::vector<source::TemplateParameter>& parameters,
                       std::string_view source, const ObservedLaunch* observed) {
    KernelName name{quoted(kernel), {}, {}};
    if (parameters.empty()) return name;
    const std::vector<std::string> launched = launched_arguments(parameters, observed);
    std::vector<std::string> arguments;
    bool complete = true;
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const source::TemplateParameter& p = parameters[i];
        const std::string label = p.kind + " " + (p.name.empty() ? "(unnamed)" : p.name);
        const std::string captured = launched.empty() ? "" : launched[i];
        const std::optional<long long> value = source::integer_literal(captured);
        const bool tunable = !is_type_parameter(p) && !p.name.empty() &&
                             (p.default_value.empty() || p.integer_default);
        if (tunable && value) {
            const std::string tuned = tuned_template_name(p, source);
            const auto& axes = observed->block_parameters;
            arguments.push_back(tuned);
            name.parameters.push_back(captured_template_parameter_entry(
                p, tuned, *value, std::find(axes.begin(), axes.end(), tuned) != axes.end()));
        } else if (!captured.empty()) {
            arguments.push_back(captured);
            name.comments.push_back("template parameter " + label + " = " + captured +
                                    ": the instantiation the program launched; the name "
                                    "expression fixes it.");
        } else if (tunable) {
            const std::string tuned = tuned_template_name(p, source);
            arguments.push_back(tuned);
            name.parameters.push_back(template_parameter_entry(p, tuned));
        } else if (p.default_value.empty()) {
            complete = false;
            name.comments.push_back("template parameter " + label + " has no default: choose it.");
        } else {
            arguments.push_back(p.default_value);
            name.comments.push_back("template parameter " + label + " = " + p.default_value +
                                    ": the name expression fixes it.");
        }
    }
    const std::string expression = kernel + "<" + join(arguments) + ">";
    name.json = complete ? quoted(expression) : todo(kernel + "<...> with every template argument");
    return name;
}

std::string launch_text(const Knobs& knobs, const std::string& size_name) {
    std::vector<std::string> block, grid;
    for (const char axis : {'x', 'y', 'z'}) {
        const std::string name = std::string("block_size_") + axis;
        const bool used = knobs.has(name);
        block.push_back(used ? quoted(name) : axis == 'x' ? todo("threads per block in x") : "1");
        grid.push_back(used || axis == 'x'
                           ? todo(std::string("blocks in ") + axis + ", e.g. ceil_div(" +
                                  size_name + ", " +
                                  (used ? name : "<threads in " + std::string(1, axis) + ">") + ")")
                           : "1");
    }
    std::string out = "  \"launch\": {\n";
    out +=
        "    // Kernel Tuner's convention: block_size_x/y/z are the threads per block; the grid "
        "covers\n    // the problem (Kernel Tuner's problem_size / grid_div_x is "
        "ceil_div(<size>, block_size_x)).\n";
    out += "    \"block\": [" + join(block) + "],\n";
    out += "    \"grid\": [" + join(grid) + "]\n  },\n";
    return out;
}

std::string observed_launch_text(const ObservedLaunch& observed) {
    std::string out = "  \"launch\": {\n";
    for (const std::string& comment : observed.launch_comments) out += "    // " + comment + "\n";
    const auto axes = [](const std::array<std::string, 3>& values) {
        return join({values.begin(), values.end()});
    };
    out += "    \"block\": [" + axes(observed.block) + "],\n";
    out += "    \"grid\": [" + axes(observed.grid) + "],\n";
    out += "    \"shared_memory_bytes\": " + observed.shared_memory_bytes + "\n  },\n";
    return out;
}

Entry launch_parameter_entry(const LaunchParameter& parameter) {
    std::vector<std::string> values;
    for (long long v : parameter.values) values.push_back(std::to_string(v));
    Entry entry;
    entry.comments = parameter.comments;
    entry.json = "{\"name\": " + quoted(parameter.name) + ", \"values\": [" + join(values) +
                 "], \"default\": " + std::to_string(parameter.default_value) + "}";
    return entry;
}

}  // namespace

// Not `-DBLOCK_SIZE=16`: it would turn `template <int BLOCK_SIZE>` into `template <int 16>`, and
// host code of a mixed file has its own names.
std::string tuned_template_name(const source::TemplateParameter& p, std::string_view source) {
    std::set<std::string> identifiers;
    for (const source::Token& token : source::lex(source))
        if (token.kind == source::TokenKind::Identifier)
            identifiers.insert(std::string(source.substr(token.begin, token.end - token.begin)));
    std::string lower = p.name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const std::string& candidate : {lower, "tuned_" + lower, "optiml_" + lower})
        if (!identifiers.contains(candidate)) return candidate;
    return "optiml_tuned_" + lower;
}

// Kernel Tuner's block sizes: powers of two from a quarter to four times the default, within a
// block's 1024 threads, the default among them.
std::vector<long long> block_size_values(long long default_value) {
    std::vector<long long> values;
    for (long long v = 1; v <= 1024; v *= 2)
        if (v * 4 >= default_value && v <= default_value * 4) values.push_back(v);
    if (std::find(values.begin(), values.end(), default_value) == values.end()) {
        values.push_back(default_value);
        std::sort(values.begin(), values.end());
    }
    return values;
}

std::string spec_skeleton(std::string_view source, const std::string& source_path,
                          const std::string& kernel, const ObservedLaunch* observed) {
    const source::KernelText text = source::find_kernel(source, kernel);
    const std::vector<source::TemplateParameter> templates =
        source::template_parameters(source, text);
    const std::vector<std::string> launched = launched_arguments(templates, observed);
    const std::map<std::string, std::string> type_defaults = template_types(source, text, launched);
    const Knobs knobs = read_knobs(source);

    std::vector<std::string> integer_scalars;
    for (const source::KernelParameter& p : text.parameters) {
        const auto type = element_type(base_type(p));
        if (!p.is_pointer && type && !spec::is_floating(*type) && !p.name.empty())
            integer_scalars.push_back(p.name);
    }
    const std::string size_hint =
        integer_scalars.empty() ? "" : " such as \"" + integer_scalars.front() + "\"";

    std::string out;
    out += std::string(observed != nullptr ? "// Spec written by `optiml capture`"
                                           : "// Spec skeleton written by `optiml init`") +
           " from " + source_path + ", kernel " + kernel + ".\n";
    out +=
        "// Every \"TODO: ...\" is a decision still to make: the spec is rejected until each "
        "is replaced.\n";
    out += "// docs/spec.md documents every field.\n";
    if (observed != nullptr)
        for (const std::string& line : observed->header) out += "// " + line + "\n";
    out += "{\n";
    out += "  \"name\": " + quoted(kernel) + ",\n";
    out += "  \"source\": " + quoted(source_path) + ",\n";
    const KernelName name = kernel_name(kernel, templates, source, observed);
    for (const std::string& comment : name.comments) out += "  // " + comment + "\n";
    out += "  \"kernel\": " + name.json + ",\n";

    std::vector<Entry> arguments;
    for (std::size_t i = 0; i < text.parameters.size(); ++i)
        arguments.push_back(argument_entry(
            text.parameters[i], i, type_defaults, size_hint,
            text.written_parameters.contains(text.parameters[i].name), !launched.empty(),
            observed != nullptr && i < observed->arguments.size() ? &observed->arguments[i]
                                                                  : nullptr));
    write_array(out, "arguments", arguments, false);
    out += observed != nullptr
               ? observed_launch_text(*observed)
               : launch_text(knobs, integer_scalars.empty() ? "<size>" : integer_scalars.front());
    if (observed != nullptr && !observed->problems.empty()) {
        for (const std::string& comment : observed->problems_comments)
            out += "  // " + comment + "\n";
        std::vector<Entry> problems;
        for (const ObservedProblem& problem : observed->problems)
            problems.push_back({problem.comments, problem.json});
        write_array(out, "problems", problems, false);
    }
    // Block sizes tuned: the source's macros and the launch-only ones a capture found.
    const auto tuned = [&](const std::string& knob) {
        return knobs.has(knob) ||
               (observed != nullptr &&
                std::any_of(observed->launch_parameters.begin(), observed->launch_parameters.end(),
                            [&](const LaunchParameter& p) { return p.name == knob; }));
    };
    std::vector<std::string> tuned_axes;
    for (std::size_t a = 0; a < 3; ++a) {
        const std::string knob = std::string("block_size_") + "xyz"[a];
        if (observed != nullptr && !observed->block_parameters[a].empty())
            tuned_axes.push_back(observed->block_parameters[a]);
        else if (tuned(knob))
            tuned_axes.push_back(knob);
    }
    if (tuned_axes.size() >= 2) {
        std::string product;
        for (const std::string& axis : tuned_axes) product += (product.empty() ? "" : " * ") + axis;
        out += "  // A block holds at most 1024 threads.\n";
        out += "  \"constraints\": [" + quoted(product + " <= 1024") + "],\n";
    }

    std::vector<Entry> parameters = name.parameters;
    for (const source::MacroDefault& macro : knobs.macros)
        parameters.push_back(parameter_entry(macro));
    if (observed != nullptr)
        for (const LaunchParameter& parameter : observed->launch_parameters)
            parameters.push_back(launch_parameter_entry(parameter));
    for (const std::string& other : knobs.not_integers)
        out += "  // " + other +
               " has an #ifndef default that is not an integer: not a "
               "parameter (parameters are integers).\n";
    write_array(out, "parameters", parameters, true);
    out += "}\n";
    return out;
}

std::size_t count_markers(std::string_view spec_text) {
    // Only values count: the header's comment quotes the marker to explain it.
    const std::string marker = "\"" + std::string(spec::kUnfinishedMarker);
    std::size_t markers = 0;
    for (std::size_t begin = 0; begin < spec_text.size();) {
        const std::size_t end = std::min(spec_text.find('\n', begin), spec_text.size());
        std::string_view line = spec_text.substr(begin, end - begin);
        line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
        if (!line.starts_with("//"))
            for (std::size_t at = line.find(marker); at != std::string_view::npos;
                 at = line.find(marker, at + 1))
                ++markers;
        begin = end + 1;
    }
    return markers;
}

}  // namespace optiml::init
