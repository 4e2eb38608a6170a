#include "driver/profile/activity/capture_file.h"

#include "driver/profile/activity/activity_file.h"

namespace optiml::profile::activity {

namespace {

void append_nullable_string(std::string& out, const std::string& text) {
    if (text.empty()) {
        out += "null";
    } else {
        append_json_string(out, text);
    }
}

void append_parameter(std::string& out, const CapturedParameter& parameter) {
    out += "{\"offset\":" + std::to_string(parameter.offset);
    out += ",\"size\":" + std::to_string(parameter.size) + ",\"bytes\":";
    append_json_string(out, to_hex(parameter.bytes));
    out += ",\"allocation\":";
    if (parameter.allocation) {
        out += "{\"offset\":" + std::to_string(parameter.allocation->offset) +
               ",\"size\":" + std::to_string(parameter.allocation->size) + '}';
    } else {
        out += "null";
    }
    out += ",\"snapshot\":";
    append_nullable_string(out, parameter.snapshot);
    out += '}';
}

// `"grid":[x,y,z],"block":[x,y,z],"shared_memory_bytes":n`: a launch's or a shape's geometry.
void append_geometry(std::string& out, const std::array<std::uint32_t, 3>& grid,
                     const std::array<std::uint32_t, 3>& block, std::uint64_t shared_memory_bytes) {
    out += "\"grid\":";
    append_json_dim3(out, grid);
    out += ",\"block\":";
    append_json_dim3(out, block);
    out += ",\"shared_memory_bytes\":" + std::to_string(shared_memory_bytes);
}

void append_shape(std::string& out, const LaunchShape& shape) {
    out += '{';
    append_geometry(out, shape.grid, shape.block, shape.shared_memory_bytes);
    out += ",\"values\":[";
    for (std::size_t v = 0; v < shape.values.size(); ++v) {
        if (v > 0) out += ',';
        append_nullable_string(out, to_hex(shape.values[v]));
    }
    out += "],\"launches\":" + std::to_string(shape.launches) + '}';
}

std::size_t scalar_size(std::string_view type) {
    static const std::pair<std::string_view, std::size_t> kSizes[] = {{"bool", 1},
                                                                      {"char", 1},
                                                                      {"signed char", 1},
                                                                      {"unsigned char", 1},
                                                                      {"short", 2},
                                                                      {"unsigned short", 2},
                                                                      {"int", 4},
                                                                      {"unsigned int", 4},
                                                                      {"float", 4},
                                                                      {"long", 8},
                                                                      {"unsigned long", 8},
                                                                      {"long long", 8},
                                                                      {"unsigned long long", 8},
                                                                      {"double", 8}};
    for (const auto& [name, size] : kSizes)
        if (name == type) return size;
    return 0;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

LaunchShape shape_of(const CapturedLaunch& launch) {
    LaunchShape shape;
    shape.grid = launch.grid;
    shape.block = launch.block;
    shape.shared_memory_bytes = launch.shared_memory_bytes;
    for (const CapturedParameter& parameter : launch.parameters)
        shape.values.push_back(parameter.allocation ? std::string() : parameter.bytes);
    shape.launches = 1;
    return shape;
}

void count_shape(CapturedLaunch& launch, LaunchShape shape) {
    for (LaunchShape& seen : launch.shapes)
        if (seen == shape) {
            seen.launches += shape.launches;
            return;
        }
    if (launch.shapes.size() < kMaxLaunchShapes) {
        launch.shapes.push_back(std::move(shape));
    } else {
        launch.other_launches += shape.launches;
    }
}

std::string to_capture_json_text(const CaptureFile& file) {
    std::string out;
    append_json_header(out, kCaptureFormatName, kCaptureFormatVersion, file.pid, file.error);
    out += ",\"launches\":[";
    for (std::size_t i = 0; i < file.launches.size(); ++i) {
        const CapturedLaunch& launch = file.launches[i];
        out += i == 0 ? "\n{\"name\":" : ",\n{\"name\":";
        append_json_string(out, launch.name);
        out += ",\"demangled\":";
        append_json_string(out, launch.demangled_name);
        out += ',';
        append_geometry(out, launch.grid, launch.block, launch.shared_memory_bytes);
        out += ",\"error\":";
        append_nullable_string(out, launch.error);
        out += ",\"snapshot_error\":";
        append_nullable_string(out, launch.snapshot_error);
        out += ",\"parameters\":[";
        for (std::size_t p = 0; p < launch.parameters.size(); ++p) {
            if (p > 0) out += ',';
            append_parameter(out, launch.parameters[p]);
        }
        out += "],\"shapes\":[";
        for (std::size_t k = 0; k < launch.shapes.size(); ++k) {
            if (k > 0) out += ',';
            append_shape(out, launch.shapes[k]);
        }
        out += "],\"other_launches\":" + std::to_string(launch.other_launches) + '}';
    }
    return out + "]}\n";
}

std::string to_hex(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(bytes.size() * 2);
    for (const char c : bytes) {
        const auto byte = static_cast<unsigned char>(c);
        hex += kDigits[byte >> 4];
        hex += kDigits[byte & 0xf];
    }
    return hex;
}

std::optional<std::string> from_hex(std::string_view hex) {
    if (hex.size() % 2 != 0) return std::nullopt;
    std::string bytes;
    bytes.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        const int high = hex_digit(hex[i]);
        const int low = hex_digit(hex[i + 1]);
        if (high < 0 || low < 0) return std::nullopt;
        bytes += static_cast<char>((high << 4) | low);
    }
    return bytes;
}

ParameterLayout signature_layout(const std::string& demangled) {
    ParameterLayout layout;
    const std::size_t close = demangled.rfind(')');
    std::size_t open = std::string::npos;
    for (std::size_t i = close, depth = 0; close != std::string::npos && i-- > 0;) {
        if (demangled[i] == ')') ++depth;
        if (demangled[i] == '(' && depth-- == 0) {
            open = i;
            break;
        }
    }
    if (open == std::string::npos) {
        layout.error =
            "the kernel was launched through cudaLaunchKernel and its parameter types "
            "are unknown (an extern \"C\" kernel has no C++ signature)";
        return layout;
    }
    std::vector<std::string> types;
    std::string current;
    int depth = 0;
    for (std::size_t i = open + 1; i < close; ++i) {
        const char c = demangled[i];
        depth += (c == '<' || c == '(' || c == '[') - (c == '>' || c == ')' || c == ']');
        if (c == ',' && depth == 0) {
            types.push_back(current);
            current.clear();
        } else if (!(c == ' ' && current.empty())) {
            current += c;
        }
    }
    if (!current.empty() && current != "void") types.push_back(current);
    std::size_t offset = 0;
    for (std::string type : types) {
        while (!type.empty() && type.back() == ' ') type.pop_back();
        if (type.starts_with("const ")) type.erase(0, 6);
        if (type.ends_with(" const")) type.erase(type.size() - 6);
        const std::size_t size = !type.empty() && type.back() == '*' ? 8 : scalar_size(type);
        if (size == 0) {
            layout.error =
                "the kernel was launched through cudaLaunchKernel and the size of its "
                "parameter type '" +
                type + "' is unknown";
            layout.parameters.clear();
            return layout;
        }
        offset = (offset + size - 1) / size * size;
        layout.parameters.emplace_back(offset, size);
        offset += size;
    }
    return layout;
}

}  // namespace optiml::profile::activity
