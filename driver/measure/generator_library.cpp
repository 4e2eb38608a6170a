#include "driver/measure/detail/generator_library.h"

#include <stdexcept>

#include "driver/measure/detail/c_abi.h"
#include "runtime/include/optiml/generate.h"

namespace optiml::measure {
namespace {

using GenerateFunction = int (*)(const optiml_generate_args*);

// The library's path, checked first: dlopen of an empty path opens the worker itself.
const std::string& built(const GeneratorSpec& spec) {
    if (spec.library.empty())
        throw std::runtime_error("the input generator " + spec.source +
                                 " was not built: the driver builds it before it sets up a worker");
    return spec.library;
}

}  // namespace

GeneratorLibrary::GeneratorLibrary(GeneratorSpec spec)
    : spec_(std::move(spec)),
      library_(built(spec_), "optiml_generate", "the input generator " + spec_.source,
               "extern \"C\" int optiml_generate(const optiml_generate_args* args) (include "
               "<optiml/generate.h>, which declares it)") {}

void GeneratorLibrary::generate(std::uint64_t seed, const std::vector<BufferSpec>& arguments,
                                const std::vector<Output>& outputs) const {
    const std::vector<optiml_scalar> scalars = c_scalars(arguments);
    std::vector<optiml_buffer> buffers;
    for (const Output& output : outputs)
        buffers.push_back({output.entry->name.c_str(), c_type(output.entry->type),
                           output.entry->count, output.bytes->data()});
    std::string message(1024, '\0');
    const optiml_generate_args args{OPTIML_GENERATE_ABI_VERSION,
                                    seed,
                                    scalars.data(),
                                    scalars.size(),
                                    buffers.data(),
                                    buffers.size(),
                                    message.data(),
                                    message.size()};
    if (library_.function<GenerateFunction>()(&args) == 0) return;
    throw std::runtime_error("the input generator " + describe(spec_) + " failed (seed " +
                             std::to_string(seed) +
                             "): " + message_text(std::move(message), "it gave no reason"));
}

std::string describe(const GeneratorSpec& generator) {
    std::string fills;
    for (const std::string& name : generator.fills) fills += (fills.empty() ? "" : ", ") + name;
    return generator.source + " (fills " + fills + ")";
}

}  // namespace optiml::measure
