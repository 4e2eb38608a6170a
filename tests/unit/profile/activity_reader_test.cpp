// Bad record files: each error names the file and the field.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "driver/profile/detail/activity_reader.h"
#include "driver/profile/profile_error.h"

namespace optiml::profile {
namespace {

nlohmann::json valid_document() {
    return nlohmann::json::parse(
        R"({"format": "optiml-activity", "version": 1, "pid": 9, "error": null,
        "dropped_records": 0, "launches": [{"name": "k", "demangled": "", "start_ns": 1,
        "end_ns": 2, "grid": [1, 1, 1], "block": [32, 1, 1], "device": 0}]})");
}

std::string error_of(const nlohmann::json& document) {
    try {
        activity_from_json(document, "records.json");
    } catch (const ProfileError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(ActivityReader, AValidDocumentIsRead) {
    const activity::ActivityFile file = activity_from_json(valid_document(), "records.json");
    EXPECT_EQ(file.pid, 9);
    ASSERT_EQ(file.launches.size(), 1u);
    EXPECT_EQ(file.launches[0].block, (std::array<std::uint32_t, 3>{32, 1, 1}));
}

TEST(ActivityReader, ErrorsNameTheFileAndTheField) {
    nlohmann::json document = valid_document();
    document.erase("launches");
    EXPECT_EQ(error_of(document), "records.json: launches: missing");

    document = valid_document();
    document["launches"][0]["grid"] = nlohmann::json::array({1, 1});
    EXPECT_EQ(error_of(document),
              "records.json: launches[0].grid: expected an array of 3 unsigned integers");

    document = valid_document();
    document["launches"][0]["end_ns"] = -5;
    EXPECT_EQ(error_of(document), "records.json: launches[0].end_ns: expected an unsigned integer");

    document = valid_document();
    document["error"] = 3;
    EXPECT_EQ(error_of(document), "records.json: error: expected null or a string");

    document = valid_document();
    document["format"] = "nsys";
    EXPECT_EQ(error_of(document),
              "records.json: format: is \"nsys\"; expected \"optiml-activity\"");
}

TEST(ActivityReader, AnotherVersionSaysWhichLibraryToUse) {
    nlohmann::json document = valid_document();
    document["version"] = 2;
    EXPECT_EQ(error_of(document),
              "records.json: version: is 2; this optiml reads version 1 (use the "
              "liboptiml-activity.so installed with this optiml)");
}

TEST(ActivityReader, TruncatedAndMissingFilesAreNamed) {
    const auto file = std::filesystem::temp_directory_path() /
                      ("optiml-truncated-activity-" + std::to_string(getpid()) + ".json");
    std::ofstream(file) << R"({"format": "optiml-activity", "vers)";
    try {
        read_activity_file(file);
        ADD_FAILURE() << "a truncated file was accepted";
    } catch (const ProfileError& e) {
        EXPECT_EQ(
            std::string(e.what()),
            file.string() + ": not valid JSON (a truncated or foreign file; rerun the profile)");
    }
    std::filesystem::remove(file);
    EXPECT_THROW(
        {
            try {
                read_activity_file(file);
            } catch (const ProfileError& e) {
                EXPECT_EQ(std::string(e.what()), file.string() + ": cannot be opened");
                throw;
            }
        },
        ProfileError);
}

}  // namespace
}  // namespace optiml::profile
