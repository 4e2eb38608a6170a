// Shared by the spec tests: the fixture spec (data/saxpy.optiml.json) and scratch files.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "driver/spec/spec.h"

namespace optiml::spec::testing {

inline std::filesystem::path data_dir() {
    return OPTIML_SPEC_TEST_DATA;
}
inline std::filesystem::path fixture_path() {
    return data_dir() / "saxpy.optiml.json";
}

inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream stream(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

// The fixture as JSON (it has comments, as specs may).
inline nlohmann::json fixture_json() {
    return nlohmann::json::parse(read_text(fixture_path()), nullptr, true, true);
}

// What loading the spec at `path` says is wrong, without its "<path>: " prefix; "(no error)"
// when it loads.
inline std::string load_error(const std::filesystem::path& path) {
    try {
        (void)load_spec(path);
    } catch (const SpecError& e) {
        const std::string prefix = path.string() + ": ";
        const std::string message = e.what();
        return message.starts_with(prefix) ? message.substr(prefix.size()) : message;
    }
    return "(no error)";
}

// A spec file in a fresh temporary folder that also holds copies of the fixture's kernel source
// and include folder, so that "source": "saxpy.cu" resolves. Removed when the test ends.
class ScratchSpec {
  public:
    explicit ScratchSpec(const std::string& contents) {
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string name = std::string(test->test_suite_name()) + "_" + test->name();
        for (char& c : name) {
            if (c == '/') c = '_';  // parameterised tests are named "Suite/Case/3"
        }
        static int created = 0;  // several scratch specs in one test get separate folders
        directory_ = std::filesystem::temp_directory_path() /
                     ("optiml_spec_test_" + std::to_string(::getpid()) + "_" + name + "_" +
                      std::to_string(++created));
        std::filesystem::create_directories(directory_);
        std::filesystem::copy(data_dir() / "saxpy.cu", directory_ / "saxpy.cu");
        std::filesystem::copy(data_dir() / "include", directory_ / "include",
                              std::filesystem::copy_options::recursive);
        path_ = directory_ / "spec.json";
        std::ofstream(path_, std::ios::binary) << contents;
    }
    ~ScratchSpec() {
        std::error_code ignored;
        std::filesystem::remove_all(directory_, ignored);
    }
    ScratchSpec(const ScratchSpec&) = delete;
    ScratchSpec& operator=(const ScratchSpec&) = delete;
    const std::filesystem::path& directory() const { return directory_; }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path directory_;
    std::filesystem::path path_;
};

}  // namespace optiml::spec::testing
