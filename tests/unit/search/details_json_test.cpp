// A trace row's "details" from the typed OutcomeDetails: the figures measured, under the names
// the trace has always used (explain, the reports and Kernel Tuner's side-by-side read them).
#include <gtest/gtest.h>

#include "driver/search/candidate_json.h"

namespace optiml::search {
namespace {

TEST(DetailsJson, NothingMeasuredIsAnEmptyObject) {
    const nlohmann::json json = details_json({});
    EXPECT_TRUE(json.is_object());
    EXPECT_TRUE(json.empty()) << json.dump();
}

TEST(DetailsJson, WritesTheFiguresPresentAndFlagsAsOne) {
    OutcomeDetails details;
    details.ci_low_ms = 0.5;
    details.compile_ms = 12.0;
    details.compile_wait_ms = 0.0;  // measured as zero: still written
    details.compile_cached = true;
    details.input_copies = 3;
    details.decided_warm = false;
    details.verified_on_device = 1;
    const nlohmann::json json = details_json(details);
    EXPECT_EQ(json, nlohmann::json::parse(R"({"ci_low_ms": 0.5, "compile_ms": 12.0,
        "compile_wait_ms": 0.0, "compile_cached": 1, "input_copies": 3, "decided_warm": 0,
        "verified_on_device": 1})"));
    EXPECT_FALSE(json.contains("l2_flushed"));  // a flag not set is left out
}

}  // namespace
}  // namespace optiml::search
