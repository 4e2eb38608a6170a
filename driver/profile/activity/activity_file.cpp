#include "driver/profile/activity/activity_file.h"

#include <cxxabi.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace optiml::profile::activity {

void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    for (const char c : text) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(c));
                    out += escaped;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

void append_json_dim3(std::string& out, const std::array<std::uint32_t, 3>& dim) {
    out += '[' + std::to_string(dim[0]) + ',' + std::to_string(dim[1]) + ',' +
           std::to_string(dim[2]) + ']';
}

void append_json_header(std::string& out, std::string_view format, int version, long pid,
                        const std::string& error) {
    out += "{\"format\":";
    append_json_string(out, format);
    out += ",\"version\":" + std::to_string(version);
    out += ",\"pid\":" + std::to_string(pid) + ",\"error\":";
    if (error.empty()) {
        out += "null";
    } else {
        append_json_string(out, error);
    }
}

std::string to_json_text(const ActivityFile& file) {
    std::string out;
    append_json_header(out, kFormatName, kFormatVersion, file.pid, file.error);
    out += ",\"dropped_records\":" + std::to_string(file.dropped_records);
    out += ",\"launches\":[";
    for (std::size_t i = 0; i < file.launches.size(); ++i) {
        const LaunchRecord& launch = file.launches[i];
        out += i == 0 ? "\n{\"name\":" : ",\n{\"name\":";
        append_json_string(out, launch.name);
        out += ",\"demangled\":";
        append_json_string(out, launch.demangled_name);
        out += ",\"start_ns\":" + std::to_string(launch.start_ns);
        out += ",\"end_ns\":" + std::to_string(launch.end_ns);
        out += ",\"grid\":";
        append_json_dim3(out, launch.grid);
        out += ",\"block\":";
        append_json_dim3(out, launch.block);
        out += ",\"device\":" + std::to_string(launch.device) + '}';
    }
    return out + "]}\n";
}

std::string demangle(const std::string& name) {
    if (!name.starts_with("_Z")) return "";
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> text(
        abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && text ? std::string(text.get()) : std::string();
}

std::string expand_pid(std::string_view path_template, long pid) {
    std::string path;
    for (std::size_t i = 0; i < path_template.size(); ++i) {
        if (path_template[i] == '%' && i + 1 < path_template.size() &&
            path_template[i + 1] == 'p') {
            path += std::to_string(pid);
            ++i;
        } else {
            path += path_template[i];
        }
    }
    return path;
}

}  // namespace optiml::profile::activity
