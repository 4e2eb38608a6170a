#include "driver/measure/detail/trial_inputs.h"

#include <algorithm>
#include <stdexcept>

#include "driver/measure/detail/fill.h"

namespace optiml::measure {
namespace {

bool has_input(const BufferSpec& argument) {
    return argument.is_pointer && argument.role != spec::Role::Output;
}

}  // namespace

TrialInputs::TrialInputs(const Problem& problem) : problem_(problem) {
    for (const GeneratorSpec& generator : problem.generators)
        generators_.push_back(std::make_unique<GeneratorLibrary>(generator));
}

HostInputs TrialInputs::make(std::uint64_t seed_offset) const {
    HostInputs inputs;
    inputs.arguments.resize(problem_.arguments.size());
    inputs.constants.resize(problem_.constants.size());
    const auto fill = [&](const BufferSpec& entry, std::string& bytes, std::uint64_t offset) {
        if (entry.fill.kind == spec::Fill::Kind::Generator)
            bytes.assign(entry.count * spec::size_of(entry.type), '\0');  // filled below
        else
            bytes = make_filled_buffer(entry.type, entry.fill, entry.count, offset);
    };
    for (std::size_t i = 0; i < problem_.arguments.size(); ++i)
        if (has_input(problem_.arguments[i]))
            fill(problem_.arguments[i], inputs.arguments[i], seed_offset);
    // Constants other than generated ones keep their data in every trial.
    for (std::size_t c = 0; c < problem_.constants.size(); ++c)
        fill(problem_.constants[c], inputs.constants[c], 0);

    std::vector<bool> generated_argument(problem_.arguments.size(), false);
    std::vector<bool> generated_constant(problem_.constants.size(), false);
    for (const auto& generator : generators_) {
        std::vector<GeneratorLibrary::Output> outputs;
        for (const std::string& name : generator->spec().fills) {
            const auto named = [&](const BufferSpec& b) { return b.name == name; };
            const auto& arguments = problem_.arguments;
            const auto& constants = problem_.constants;
            if (auto a = std::find_if(arguments.begin(), arguments.end(), named);
                a != arguments.end() && has_input(*a)) {
                const auto i = static_cast<std::size_t>(a - arguments.begin());
                outputs.push_back({&*a, &inputs.arguments[i]});
                generated_argument[i] = true;
            } else if (auto c = std::find_if(constants.begin(), constants.end(), named);
                       c != constants.end()) {
                const auto i = static_cast<std::size_t>(c - constants.begin());
                outputs.push_back({&*c, &inputs.constants[i]});
                generated_constant[i] = true;
            } else {
                throw std::runtime_error("the input generator " + generator->spec().source +
                                         " fills '" + name +
                                         "', which is no input argument or constant");
            }
        }
        generator->generate(seed_offset, problem_.arguments, outputs);
    }
    const auto check_generated = [](const BufferSpec& entry, bool generated) {
        if (entry.fill.kind == spec::Fill::Kind::Generator && !generated)
            throw std::runtime_error("'" + entry.name +
                                     "' has a generator fill, but no generator of the problem "
                                     "fills it");
    };
    for (std::size_t i = 0; i < problem_.arguments.size(); ++i)
        if (has_input(problem_.arguments[i]))
            check_generated(problem_.arguments[i], generated_argument[i]);
    for (std::size_t c = 0; c < problem_.constants.size(); ++c)
        check_generated(problem_.constants[c], generated_constant[c]);
    return inputs;
}

}  // namespace optiml::measure
