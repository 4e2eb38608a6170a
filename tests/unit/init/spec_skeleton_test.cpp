// `optiml init`'s skeletons of fixture kernels, text for text; and the spec loader rejecting
// each "TODO:" marker in turn, with its message, until every decision is made.
#include "driver/init/spec_skeleton.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include <nlohmann/json.hpp>

#include "driver/source/rewrite_error.h"
#include "driver/spec/spec.h"

namespace optiml::init {
namespace {

namespace fs = std::filesystem;

fs::path data_dir() {
    return OPTIML_INIT_TEST_DATA;
}

std::string read_text(const fs::path& path) {
    std::ifstream stream(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

std::string skeleton_of(const std::string& file, const std::string& kernel) {
    return spec_skeleton(read_text(data_dir() / file), file, kernel);
}

TEST(SpecSkeleton, MacrosScalarsAndConstAndNonConstPointers) {
    EXPECT_EQ(skeleton_of("scale.cu", "scale"), read_text(data_dir() / "scale.expected.json"));
}

TEST(SpecSkeleton, TemplateKernelWithTwoDimensionalBlocks) {
    EXPECT_EQ(skeleton_of("tiled.cu", "tiled"), read_text(data_dir() / "tiled.expected.json"));
}

TEST(SpecSkeleton, AKernelThatIsNotThereIsAnError) {
    EXPECT_THROW(skeleton_of("scale.cu", "absent"), source::RewriteError);
}

// "arguments[2].count" -> the JSON pointer "/arguments/2/count".
nlohmann::json::json_pointer pointer_of(const std::string& field) {
    std::string pointer = "/";
    for (const char c : field) {
        if (c == '.' || c == '[') {
            pointer += '/';
        } else if (c != ']') {
            pointer += c;
        }
    }
    return nlohmann::json::json_pointer(pointer);
}

// Loads the skeleton, replaces the marker the loader names with `answers[field]`, and again,
// until the spec loads: each marker is rejected in turn, with the message expected for it.
TEST(SpecSkeleton, TheLoaderRejectsEveryMarkerUntilItIsReplaced) {
    const fs::path dir =
        fs::temp_directory_path() / ("optiml_init_test_" + std::to_string(getpid()));
    fs::create_directories(dir);
    fs::copy_file(data_dir() / "scale.cu", dir / "scale.cu", fs::copy_options::overwrite_existing);
    const fs::path spec_file = dir / "scale.optiml.json";
    std::ofstream(spec_file) << skeleton_of("scale.cu", "scale");

    struct Step {
        std::string field;
        nlohmann::json answer;
        std::string message;  // after "<file>: <field>: "
    };
    const std::vector<Step> steps = {
        {"arguments[0].value", 1 << 20,
         "still \"TODO: value of n while tuning\" (and 8 more \"TODO:\" markers to replace); "
         "expected a number: the value the kernel gets while tuning"},
        {"arguments[1].value", 2.0,
         "still \"TODO: value of factor while tuning\" (and 7 more \"TODO:\" markers to "
         "replace); expected a number: the value the kernel gets while tuning"},
        {"arguments[2].count", "n",
         "still \"TODO: element count of in\" (and 6 more \"TODO:\" markers to replace); "
         "expected an expression such as \"n\""},
        {"arguments[3].count", "n",
         "still \"TODO: element count of out\" (and 5 more \"TODO:\" markers to replace); "
         "expected an expression such as \"n\""},
        {"arguments[3].role", "output",
         "still \"TODO: output or inout\" (and 4 more \"TODO:\" markers to replace); expected "
         "\"output\" (the kernel only writes it) or \"inout\" (it also reads it)"},
        {"arguments[4].count", 1,
         "still \"TODO: element count of counts\" (and 3 more \"TODO:\" markers to replace); "
         "expected an expression such as \"n\""},
        {"arguments[4].role", "inout",
         "still \"TODO: output or inout\" (and 2 more \"TODO:\" markers to replace); expected "
         "\"output\" (the kernel only writes it) or \"inout\" (it also reads it)"},
        {"launch.grid[0]", "ceil_div(n, block_size_x * items_per_thread)",
         "still \"TODO: blocks in x, e.g. ceil_div(n, block_size_x)\" (and 1 more \"TODO:\" "
         "markers to replace); expected an expression such as \"ceil_div(n, block_size_x)\""},
        {"parameters[1].values[1]", 4,
         "still \"TODO: more values of items_per_thread to try\"; expected integers to try (the "
         "default among them), without the marker"},
    };
    nlohmann::json json = nlohmann::json::parse(read_text(spec_file), nullptr, true, true);
    for (const Step& step : steps) {
        try {
            (void)spec::load_spec(spec_file);
            FAIL() << "a skeleton with markers loaded; expected " << step.field;
        } catch (const spec::SpecError& e) {
            EXPECT_EQ(std::string(e.what()),
                      spec_file.string() + ": " + step.field + ": " + step.message);
        }
        json[pointer_of(step.field)] = step.answer;
        std::ofstream(spec_file, std::ios::trunc) << json.dump(2);
    }
    const spec::Spec spec = spec::load_spec(spec_file);  // every decision made: a valid spec
    EXPECT_EQ(spec.parameters[1].values, (std::vector<std::int64_t>{2, 4}));
    fs::remove_all(dir);
}

}  // namespace
}  // namespace optiml::init
