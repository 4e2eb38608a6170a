// The spec reader: JSON with comments, its fields, expressions and the kernel file it names.
// A bad spec must be one spec::SpecError that names the spec's file; anything else is a finding.
#include "driver/spec/spec.h"
#include "fuzz_support.h"

#include <filesystem>
#include <string>

namespace {

// The seeds' kernel files beside the spec, so that mutations reach past "file not found".
void copy_seed_kernels(const std::filesystem::path& folder) {
    namespace fs = std::filesystem;
    const fs::path root = OPTIML_SOURCE_DIR;
    fs::create_directories(folder);
    for (const fs::path& kernels : {root / "examples/saxpy/kernels",
                                    root / "examples/matmul/kernels", root / "tests/data/kernels"})
        for (const auto& entry : fs::recursive_directory_iterator(kernels))
            if (entry.is_regular_file() && entry.path().extension() != ".json")
                fs::copy_file(entry.path(), folder / entry.path().filename(),
                              fs::copy_options::overwrite_existing);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace optiml;
    static const bool kernels_copied = (copy_seed_kernels(fuzz::scratch_folder() / "spec"), true);
    (void)kernels_copied;
    const auto path = fuzz::write_input("spec/kernel.optiml.json", fuzz::as_text(data, size));
    try {
        spec::load_spec(path);
    } catch (const spec::SpecError& error) {
        if (std::string(error.what()).find(path.string()) == std::string::npos)
            fuzz::finding(std::string("a spec error that does not name the file: ") + error.what());
    }
    return 0;
}
