#include "driver/base/read_file.h"

#include <fstream>
#include <sstream>

namespace optiml::base {

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

}  // namespace optiml::base
