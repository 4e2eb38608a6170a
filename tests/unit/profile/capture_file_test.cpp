// The capture file liboptiml-activity.so writes, through the library's own writer and read back
// by the driver's reader; and the reader's message for each malformed field. The records are
// constructed, not captured from a program.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "driver/profile/activity/activity_file.h"
#include "driver/profile/activity/capture_file.h"
#include "driver/profile/detail/activity_reader.h"
#include "driver/profile/profile_error.h"

namespace optiml::profile {
namespace {

activity::CaptureFile constructed() {
    activity::CaptureFile file;
    file.pid = 77;
    activity::CapturedLaunch launch;
    launch.name = "_Z4axpyifPKfPf";
    launch.demangled_name = "axpy(int, float, float const*, float*)";
    launch.grid = {4096, 2, 1};
    launch.block = {256, 1, 1};
    launch.shared_memory_bytes = 512;
    activity::CapturedParameter n{0, 4, std::string("\x00\x00\x10\x00", 4), std::nullopt, ""};
    activity::CapturedParameter x{8, 8, std::string("\x00\x04\x00\x00\x7f\x00\x00\x00", 8),
                                  activity::DeviceAllocation{1024, 4195328},
                                  "/tmp/snapshot-77-0-1.bin"};
    launch.parameters = {n, x};
    file.launches.push_back(launch);
    activity::CapturedLaunch unreadable;
    unreadable.name = "scale";
    unreadable.error = "cuFuncGetParamInfo failed: \"invalid\"";
    unreadable.snapshot_error = "cuCtxSynchronize failed: an illegal memory access (700)";
    file.launches.push_back(unreadable);
    return file;
}

std::string capture_error_of(const nlohmann::json& document) {
    try {
        capture_from_json(document, "capture.json");
    } catch (const ProfileError& e) {
        return e.what();
    }
    return "(accepted)";
}

TEST(CaptureFile, WhatTheLibraryWritesTheDriverReadsBackExactly) {
    const activity::CaptureFile written = constructed();
    const activity::CaptureFile read =
        capture_from_json(nlohmann::json::parse(activity::to_capture_json_text(written)), "text");
    EXPECT_EQ(read.pid, 77);
    EXPECT_EQ(read.error, "");
    ASSERT_EQ(read.launches.size(), 2u);
    const activity::CapturedLaunch& launch = read.launches[0];
    EXPECT_EQ(launch.name, "_Z4axpyifPKfPf");
    EXPECT_EQ(launch.demangled_name, written.launches[0].demangled_name);
    EXPECT_EQ(launch.grid, written.launches[0].grid);
    EXPECT_EQ(launch.block, written.launches[0].block);
    EXPECT_EQ(launch.shared_memory_bytes, 512u);
    ASSERT_EQ(launch.parameters.size(), 2u);
    EXPECT_EQ(launch.parameters[0].bytes, written.launches[0].parameters[0].bytes);
    EXPECT_FALSE(launch.parameters[0].allocation);
    EXPECT_EQ(launch.parameters[1].offset, 8u);
    EXPECT_EQ(launch.parameters[1].bytes, written.launches[0].parameters[1].bytes);
    ASSERT_TRUE(launch.parameters[1].allocation);
    EXPECT_EQ(launch.parameters[1].allocation->offset, 1024u);
    EXPECT_EQ(launch.parameters[1].allocation->bytes_from_pointer(), 4194304u);
    EXPECT_EQ(launch.parameters[1].snapshot, "/tmp/snapshot-77-0-1.bin");
    EXPECT_EQ(read.launches[1].error, written.launches[1].error);
    EXPECT_EQ(launch.snapshot_error, "");
    EXPECT_EQ(read.launches[1].snapshot_error, written.launches[1].snapshot_error);
    EXPECT_TRUE(read.launches[1].parameters.empty());
}

// Every later launch counts toward its shape: the same geometry and values of the parameters that
// are not device pointers (a pointer to another buffer is the same shape), another n or grid a new
// one, and past kMaxLaunchShapes only the count of the others grows. What the library writes of
// them reads back; a file without shapes (an earlier OptiML) reads as the first launch alone.
TEST(CaptureFile, LaterLaunchesCountTowardTheirShapesAndReadBack) {
    activity::CaptureFile file = constructed();
    activity::CapturedLaunch& launch = file.launches[0];
    launch.shapes.push_back(activity::shape_of(launch));
    const auto relaunch = [&](std::uint32_t n, std::uint32_t blocks, char pointer_byte) {
        activity::CapturedLaunch again = launch;
        again.grid = {blocks, 2, 1};
        again.parameters[0].bytes = std::string(reinterpret_cast<const char*>(&n), 4);
        again.parameters[1].bytes[0] = pointer_byte;
        activity::count_shape(launch, activity::shape_of(again));
    };
    relaunch(1048576, 4096, 9);  // the first launch's shape, another buffer
    relaunch(1024, 4, 0);
    relaunch(1024, 4, 1);
    ASSERT_EQ(launch.shapes.size(), 2u);
    EXPECT_EQ(launch.shapes[0].launches, 2u);
    EXPECT_EQ(launch.shapes[1].launches, 2u);
    EXPECT_EQ(launch.shapes[1].grid, (std::array<std::uint32_t, 3>{4, 2, 1}));
    EXPECT_EQ(launch.shapes[1].values[0], std::string("\x00\x04\x00\x00", 4));
    EXPECT_EQ(launch.shapes[1].values[1], "");  // a device pointer
    for (std::uint32_t n = 1; launch.shapes.size() < activity::kMaxLaunchShapes; ++n)
        relaunch(n, 1, 0);
    relaunch(7777, 1, 0);
    relaunch(7778, 1, 0);
    EXPECT_EQ(launch.shapes.size(), activity::kMaxLaunchShapes);
    EXPECT_EQ(launch.other_launches, 2u);

    const activity::CaptureFile read =
        capture_from_json(nlohmann::json::parse(activity::to_capture_json_text(file)), "text");
    ASSERT_EQ(read.launches[0].shapes.size(), activity::kMaxLaunchShapes);
    EXPECT_EQ(read.launches[0].shapes[1], launch.shapes[1]);
    EXPECT_EQ(read.launches[0].shapes[1].launches, 2u);
    EXPECT_EQ(read.launches[0].other_launches, 2u);
    EXPECT_TRUE(read.launches[1].shapes.empty());

    nlohmann::json earlier = nlohmann::json::parse(activity::to_capture_json_text(constructed()));
    earlier["launches"][0].erase("shapes");
    earlier["launches"][0].erase("other_launches");
    EXPECT_TRUE(capture_from_json(earlier, "earlier").launches[0].shapes.empty());
    nlohmann::json short_values = nlohmann::json::parse(activity::to_capture_json_text(file));
    short_values["launches"][0]["shapes"][1]["values"].erase(0);
    EXPECT_EQ(capture_error_of(short_values),
              "capture.json: launches[0].shapes[1].values: has 1 entries; expected one per "
              "parameter (2)");
}

TEST(CaptureFile, HexRoundTripsAndRejectsWhatIsNotHex) {
    const std::string bytes("\x00\xff\x10\xab", 4);
    EXPECT_EQ(activity::to_hex(bytes), "00ff10ab");
    EXPECT_EQ(activity::from_hex("00FF10ab"), bytes);
    EXPECT_FALSE(activity::from_hex("abc"));
    EXPECT_FALSE(activity::from_hex("zz"));
}

TEST(CaptureFile, ASignatureGivesTheParameterLayoutOfBuiltInTypes) {
    using Offsets = std::vector<std::pair<std::size_t, std::size_t>>;
    EXPECT_EQ(activity::signature_layout("axpy(int, float, float const*, float*)").parameters,
              (Offsets{{0, 4}, {4, 4}, {8, 8}, {16, 8}}));
    // Each aligned to its size; templates and namespaces in the name do not count.
    EXPECT_EQ(activity::signature_layout("void app::stencil<4>(char, double, short)").parameters,
              (Offsets{{0, 1}, {8, 8}, {16, 2}}));
    EXPECT_TRUE(activity::signature_layout("g()").parameters.empty());
    EXPECT_TRUE(activity::signature_layout("g()").error.empty());
    const activity::ParameterLayout pair =
        activity::signature_layout("h(std::pair<int, int>, int)");
    EXPECT_TRUE(pair.parameters.empty());
    EXPECT_EQ(pair.error,
              "the kernel was launched through cudaLaunchKernel and the size of its parameter "
              "type 'std::pair<int, int>' is unknown");
    EXPECT_EQ(activity::signature_layout("scale").error,
              "the kernel was launched through cudaLaunchKernel and its parameter types are "
              "unknown (an extern \"C\" kernel has no C++ signature)");
}

TEST(CaptureFile, EachMalformedFieldIsNamed) {
    const nlohmann::json valid =
        nlohmann::json::parse(activity::to_capture_json_text(constructed()));
    nlohmann::json document = valid;
    document["format"] = "optiml-activity";
    EXPECT_EQ(capture_error_of(document),
              "capture.json: format: is \"optiml-activity\"; expected \"optiml-capture\"");

    document = valid;
    document["launches"][0]["parameters"][0]["bytes"] = "0000";
    EXPECT_EQ(capture_error_of(document),
              "capture.json: launches[0].parameters[0].bytes: expected 4 bytes as 8 hex digits "
              "(the parameter's size)");

    document = valid;
    document["launches"][0]["parameters"][1]["allocation"]["offset"] = 4195328;
    EXPECT_EQ(capture_error_of(document),
              "capture.json: launches[0].parameters[1].allocation.offset: is 4195328; expected "
              "less than the allocation's size, 4195328");

    document = valid;
    document["launches"][0]["parameters"][0]["snapshot"] = "/tmp/s.bin";
    EXPECT_EQ(capture_error_of(document),
              "capture.json: launches[0].parameters[0].snapshot: a snapshot needs an "
              "allocation; expected null");

    document = valid;
    document["launches"][0].erase("shared_memory_bytes");
    EXPECT_EQ(capture_error_of(document), "capture.json: launches[0].shared_memory_bytes: missing");

    document = valid;
    document["launches"][0]["block"] = nlohmann::json::array({256, 1});
    EXPECT_EQ(capture_error_of(document),
              "capture.json: launches[0].block: expected an array of 3 unsigned integers");

    document = valid;
    document["launches"][1]["parameters"] = nlohmann::json::object();
    EXPECT_EQ(capture_error_of(document),
              "capture.json: launches[1].parameters: expected an array");

    document = valid;
    document["launches"][0]["parameters"][1] = 3;
    EXPECT_EQ(capture_error_of(document),
              "capture.json: launches[0].parameters[1]: expected an object");

    document = valid;
    document["launches"][0]["snapshot_error"] = false;
    EXPECT_EQ(capture_error_of(document),
              "capture.json: launches[0].snapshot_error: expected null or a string");

    document = valid;
    document["version"] = 2;
    EXPECT_EQ(capture_error_of(document),
              "capture.json: version: is 2; this optiml reads version 1 (use the "
              "liboptiml-activity.so installed with this optiml)");
}

TEST(CaptureFile, ATruncatedFileIsNamed) {
    const auto file = std::filesystem::temp_directory_path() /
                      ("optiml-truncated-capture-" + std::to_string(getpid()) + ".json");
    std::ofstream(file) << R"({"format": "optiml-capture", "vers)";
    try {
        read_capture_file(file);
        ADD_FAILURE() << "a truncated file was accepted";
    } catch (const ProfileError& e) {
        EXPECT_EQ(
            std::string(e.what()),
            file.string() + ": not valid JSON (a truncated or foreign file; rerun the capture)");
    }
    std::filesystem::remove(file);
}

}  // namespace
}  // namespace optiml::profile
