#include "driver/cli/strategy_option.h"

#include <algorithm>

#include "driver/search/strategy.h"

namespace optiml::cli {
namespace {

// Kernel Tuner's strategies that one of OptiML's does alike (greedy_ils has the same name).
constexpr std::pair<const char*, const char*> kKernelTunerNames[] = {
    {"brute_force", "exhaustive"},
    {"random_sample", "random"},
    {"genetic_algorithm", "genetic"},
    {"bayes_opt", "bayes"},
};

}  // namespace

std::string strategy_name_error(const std::string& name) {
    const auto& names = search::strategy_names();
    if (std::find(names.begin(), names.end(), name) != names.end()) return "";
    std::string error = "unknown search strategy \"" + name + "\"";
    for (const auto& [kernel_tuner, optiml] : kKernelTunerNames)
        if (name == kernel_tuner) error += std::string(" (Kernel Tuner's name for ") + optiml + ")";
    return error + "; expected one of " + search::strategy_names_text();
}

CLI::Validator strategy_name() {
    return CLI::Validator([](std::string& name) { return strategy_name_error(name); },
                          "{" + search::strategy_names_text() + "}");
}

}  // namespace optiml::cli
