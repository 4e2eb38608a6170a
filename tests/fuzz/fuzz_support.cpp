#include "fuzz_support.h"

#include "driver/base/scratch_dir.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>

namespace optiml::fuzz {

const std::filesystem::path& scratch_folder() {
    // Never destroyed before the last input: released at exit, which removes the folder.
    static const auto folder = std::make_unique<base::ScratchDir>("optiml-fuzz");
    if (folder->path().empty()) finding("no scratch folder: " + folder->error());
    return folder->path();
}

std::filesystem::path write_input(const std::string& name, std::string_view bytes) {
    const std::filesystem::path path = scratch_folder() / name;
    std::filesystem::create_directories(path.parent_path());
    // A new file each time, not the old one truncated: ext4 writes a truncated file back to the
    // disk when it is closed (auto_da_alloc), which made a target spend most of its time waiting.
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) finding("cannot write the input to " + path.string());
    return path;
}

void finding(const std::string& what) {
    std::cerr << "fuzz: finding: " << what << "\n";
    std::abort();
}

}  // namespace optiml::fuzz
