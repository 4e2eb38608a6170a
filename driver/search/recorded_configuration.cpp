// A configuration of a recording as a person names it on the command line
// ("block_size_x=32,layout=row"): the replay's --baseline.
#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "driver/search/recording.h"

namespace optiml::search {
namespace {

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
    return text;
}

// "16, 32, 64" or, for values the file wrote as text, "0 (row), 1 (col)".
std::string values_text(const Recording& recording, std::size_t p) {
    const std::string& name = recording.space.names[p];
    const auto names = recording.value_names.find(name);
    std::vector<std::string> items;
    for (const std::int64_t value : recording.space.values[p]) {
        std::string item = std::to_string(value);
        if (names != recording.value_names.end())
            for (const auto& [text, stands_for] : names->second)
                if (stands_for == value) item += " (" + text + ")";
        items.push_back(std::move(item));
    }
    return joined(items, ", ");
}

std::int64_t value_of(const Recording& recording, std::size_t p, std::string_view text) {
    const std::string& name = recording.space.names[p];
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc() && end == text.data() + text.size() && !text.empty()) return value;
    if (text == "true" || text == "True") return 1;
    if (text == "false" || text == "False") return 0;
    if (const auto names = recording.value_names.find(name); names != recording.value_names.end())
        if (const auto found = names->second.find(std::string(text)); found != names->second.end())
            return found->second;
    throw std::invalid_argument(
        name + "=" + std::string(text) + ": not a value of " + name +
        "; expected one of its recorded values: " + values_text(recording, p));
}

}  // namespace

Config recorded_configuration(const Recording& recording, std::string_view text) {
    const Space& space = recording.space;
    std::vector<std::string> example;
    for (const auto& [name, value] : space.defaults)
        example.push_back(name + "=" + std::to_string(value));
    const std::string names = joined(space.names, ", ");
    Config config;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        const std::string_view item = trimmed(text.substr(start, comma - start));
        const std::size_t equals = item.find('=');
        const std::string_view name = trimmed(item.substr(0, equals));
        if (equals == std::string_view::npos || name.empty())
            throw std::invalid_argument("got \"" + std::string(item) +
                                        "\"; expected name=value pairs separated by commas, "
                                        "e.g. " +
                                        joined(example, ","));
        const auto p = static_cast<std::size_t>(
            std::find(space.names.begin(), space.names.end(), name) - space.names.begin());
        if (p == space.names.size())
            throw std::invalid_argument("no parameter \"" + std::string(name) + "\" in " +
                                        recording.file +
                                        "; expected one of its parameters: " + names);
        if (config.count(space.names[p]))
            throw std::invalid_argument(space.names[p] +
                                        " given twice; expected each parameter once");
        config[space.names[p]] = value_of(recording, p, trimmed(item.substr(equals + 1)));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    for (const std::string& name : space.names)
        if (!config.count(name))
            throw std::invalid_argument("no value for " + name +
                                        "; expected a value for each of the recording's "
                                        "parameters: " +
                                        names);
    if (!recording.records.count(config))
        throw std::invalid_argument(format_config(config) + " is not in " + recording.file +
                                    "; expected a recorded configuration");
    return config;
}

}  // namespace optiml::search
