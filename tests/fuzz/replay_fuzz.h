// What the two replay targets share (replay_kernel_tuner_fuzz.cpp, replay_t4_fuzz.cpp): the bytes
// as a recording file read by search::read_recording, which recognizes the format from the
// contents. A bad file must be one search::RecordingError that starts with the file's name
// ("<file>: <field>: ..."); a file accepted must describe a consistent space: a value list per
// name, every record setting exactly the space's names to values of its lists, and defaults that
// set the names too.
#pragma once

#include "driver/search/recording_file.h"
#include "fuzz_support.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace optiml::fuzz {

inline void check_recording(const search::Recording& recording, const std::string& file) {
    const search::Space& space = recording.space;
    if (recording.file != file) finding("the recording does not say which file it came from");
    if (space.names.size() != space.values.size())
        finding(std::to_string(space.names.size()) + " names but " +
                std::to_string(space.values.size()) + " value lists");
    const std::set<std::string> names(space.names.begin(), space.names.end());
    if (names.size() != space.names.size()) finding("a parameter named twice in the space");
    const auto sets_the_names = [&](const search::Config& config) {
        return config.size() == names.size() &&
               std::all_of(names.begin(), names.end(),
                           [&](const std::string& name) { return config.contains(name); });
    };
    for (const auto& [config, outcome] : recording.records) {
        if (!sets_the_names(config)) finding("a record that does not set the space's names");
        for (std::size_t p = 0; p < space.names.size(); ++p) {
            const auto& values = space.values[p];
            if (std::find(values.begin(), values.end(), config.at(space.names[p])) == values.end())
                finding("a record's value of " + space.names[p] + " is not in the space");
        }
        if (outcome.ok && outcome.status != "ok") finding("an ok record whose status is not ok");
    }
    if (!recording.records.empty() && !sets_the_names(space.defaults))
        finding("defaults that do not set the space's names");
}

// Reads the bytes as a recording file.
inline int fuzz_recording(const std::uint8_t* data, std::size_t size) {
    const auto path = write_input("replay/recording.json", as_text(data, size));
    const std::string file = path.string();
    try {
        check_recording(search::read_recording(path), file);
    } catch (const search::RecordingError& error) {
        if (!std::string(error.what()).starts_with(file + ": "))
            finding(std::string("a recording error that does not start with the file: ") +
                    error.what());
    }
    return 0;
}

}  // namespace optiml::fuzz
