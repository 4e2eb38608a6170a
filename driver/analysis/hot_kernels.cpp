#include "driver/analysis/hot_kernels.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "driver/analysis/analysis_error.h"
#include "driver/base/format.h"

namespace optiml::analysis {

namespace {

std::string sanitize(std::string_view text) {
    std::string clean(text);
    for (char& c : clean) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
    }
    return clean;
}

// "void ns::name<int, 4>(float*, int)" -> "name".
std::string identifier_from_demangled(std::string_view demangled) {
    int depth = 0;
    std::size_t end = demangled.size();
    for (std::size_t i = 0; i < demangled.size(); ++i) {
        if (demangled[i] == '<') ++depth;
        if (demangled[i] == '>') --depth;
        if (demangled[i] == '(' && depth == 0) {
            end = i;
            break;
        }
    }
    std::string_view head = demangled.substr(0, end);
    while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
    if (head.ends_with('>')) {  // drop the template arguments
        depth = 0;
        for (std::size_t i = head.size(); i-- > 0;) {
            if (head[i] == '>') ++depth;
            if (head[i] == '<' && --depth == 0) {
                head = head.substr(0, i);
                break;
            }
        }
    }
    if (const auto colons = head.rfind("::"); colons != std::string_view::npos) {
        head.remove_prefix(colons + 2);
    }
    if (const auto space = head.rfind(' '); space != std::string_view::npos) {
        head.remove_prefix(space + 1);
    }
    return std::string(head);
}

// "_Z5saxpyifPKfPf" -> "saxpy"; "_ZN2ns6kernelEv" -> "kernel"; "" when not that simple.
std::string identifier_from_mangled(std::string_view mangled) {
    if (!mangled.starts_with("_Z")) return "";
    std::size_t at = 2;
    const bool nested = at < mangled.size() && mangled[at] == 'N';
    if (nested) ++at;
    std::string last;
    while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at]))) {
        std::size_t length = 0;
        while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at]))) {
            length = length * 10 + static_cast<std::size_t>(mangled[at] - '0');
            ++at;
        }
        if (length == 0 || at + length > mangled.size()) return "";
        last = std::string(mangled.substr(at, length));
        at += length;
        if (!nested) break;
    }
    return last;
}

std::string suggestion_for(const std::string& target, const std::string& short_name) {
    return "optiml_optimize_kernel(" + target + " SPEC kernels/" + short_name + ".optiml.json)";
}

struct Aggregate {
    KernelTime time;
    std::vector<std::pair<std::pair<Dim3, Dim3>, std::uint64_t>> geometries;  // first seen first
};

}  // namespace

std::string kernel_short_name(std::string_view name, std::string_view demangled_name) {
    std::string identifier;
    if (!demangled_name.empty()) identifier = identifier_from_demangled(demangled_name);
    if (identifier.empty()) identifier = identifier_from_mangled(name);
    if (identifier.empty()) identifier = std::string(name);
    return identifier.empty() ? "kernel" : sanitize(identifier);
}

HotKernelReport select_hot_kernels(const std::vector<KernelActivity>& launches,
                                   const HotKernelOptions& options) {
    if (!(options.time_share > 0.0 && options.time_share <= 1.0)) {
        throw AnalysisError("hot kernels: time_share: is " +
                            base::format::number(options.time_share) +
                            "; expected a share in (0, 1], e.g. 0.8");
    }
    if (options.max_hot == 0) {
        throw AnalysisError("hot kernels: max_hot: is 0; expected at least 1 kernel");
    }
    std::map<std::string, Aggregate> by_name;
    HotKernelReport report;
    for (const KernelActivity& launch : launches) {
        Aggregate& entry = by_name[launch.name];
        if (entry.time.launches == 0) {
            entry.time.name = launch.name;
            entry.time.demangled_name = launch.demangled_name;
            entry.time.short_name = kernel_short_name(launch.name, launch.demangled_name);
        }
        entry.time.total_ns += launch.duration_ns;
        ++entry.time.launches;
        report.total_ns += launch.duration_ns;
        const std::pair<Dim3, Dim3> geometry{launch.grid, launch.block};
        auto seen = std::find_if(entry.geometries.begin(), entry.geometries.end(),
                                 [&](const auto& item) { return item.first == geometry; });
        if (seen == entry.geometries.end()) {
            entry.geometries.push_back({geometry, 1});
        } else {
            ++seen->second;
        }
    }
    for (auto& [name, entry] : by_name) {
        std::uint64_t most = 0;
        for (const auto& [geometry, count] : entry.geometries) {
            if (count > most) {
                most = count;
                entry.time.grid = geometry.first;
                entry.time.block = geometry.second;
            }
        }
        report.kernels.push_back(std::move(entry.time));
    }
    // by_name is ordered by name, so the stable sort breaks ties by name.
    std::stable_sort(
        report.kernels.begin(), report.kernels.end(),
        [](const KernelTime& a, const KernelTime& b) { return a.total_ns > b.total_ns; });
    if (report.total_ns == 0) return report;

    std::uint64_t cumulative = 0;
    const auto total = static_cast<double>(report.total_ns);
    for (KernelTime& kernel : report.kernels) {
        cumulative += kernel.total_ns;
        kernel.share = static_cast<double>(kernel.total_ns) / total;
        kernel.cumulative_share = static_cast<double>(cumulative) / total;
    }
    for (KernelTime& kernel : report.kernels) {
        if (report.hot_share > options.time_share || report.hot_count == options.max_hot) break;
        if (kernel.total_ns == 0) break;
        kernel.hot = true;
        kernel.suggestion = suggestion_for(options.target, kernel.short_name);
        report.hot_share = kernel.cumulative_share;
        ++report.hot_count;
    }
    report.capped = report.hot_share <= options.time_share;
    return report;
}

std::string to_markdown(const HotKernelReport& report) {
    std::string text = "# Kernels by GPU time\n\n";
    if (report.kernels.empty()) return text + "No kernel launches were recorded.\n";
    text +=
        "Total kernel time: " + base::format::seconds(static_cast<double>(report.total_ns) * 1e-9) +
        ".\n\n| # | kernel | GPU time | share | cumulative | launches | hot |\n"
        "|---|---|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < report.kernels.size(); ++i) {
        const KernelTime& kernel = report.kernels[i];
        const std::string& shown =
            kernel.demangled_name.empty() ? kernel.name : kernel.demangled_name;
        text += "| " + std::to_string(i + 1) + " | `" + shown + "` | " +
                base::format::seconds(static_cast<double>(kernel.total_ns) * 1e-9) + " | " +
                base::format::percent(kernel.share) + " | " +
                base::format::percent(kernel.cumulative_share) + " | " +
                std::to_string(kernel.launches) + " | " + (kernel.hot ? "yes" : "") + " |\n";
    }
    if (report.hot_count == 0) return text;
    text += "\nThe " + std::to_string(report.hot_count) + " hot kernel(s) hold " +
            base::format::percent(report.hot_share) + " of GPU time";
    text += report.capped ? " (capped: the time is spread over many kernels).\n" : ".\n";
    text += "Add to CMakeLists.txt, one spec per kernel (see docs/spec.md):\n\n```cmake\n";
    for (const KernelTime& kernel : report.kernels) {
        if (kernel.hot) text += kernel.suggestion + "\n";
    }
    return text + "```\n";
}

}  // namespace optiml::analysis
