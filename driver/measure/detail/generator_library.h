// A project's input generator (runtime/include/optiml/generate.h), compiled into a shared object
// by the driver and loaded here: one call fills every argument and constant it names, so the
// buffers satisfy the kernel's invariants together. Host code only, tested without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "driver/measure/detail/shared_library.h"
#include "driver/measure/protocol.h"

namespace optiml::measure {

class GeneratorLibrary {
  public:
    // Throws std::runtime_error naming the source when the library cannot be loaded or does not
    // define optiml_generate.
    explicit GeneratorLibrary(GeneratorSpec spec);

    // An entry to fill: its spec (name, type, count) and its bytes (count elements, zeroed).
    struct Output {
        const BufferSpec* entry;
        std::string* bytes;
    };
    // Calls the generator once with `seed` and the scalars of `arguments`. Throws
    // std::runtime_error naming the source and the entries when it reports a failure.
    void generate(std::uint64_t seed, const std::vector<BufferSpec>& arguments,
                  const std::vector<Output>& outputs) const;

    const GeneratorSpec& spec() const { return spec_; }

  private:
    GeneratorSpec spec_;
    SharedLibrary library_;
};

// "make_csr.cpp (fills row_ptr, col_idx)": how messages name a generator.
std::string describe(const GeneratorSpec& generator);

}  // namespace optiml::measure
