// Evidence assembly rules on constructed profiles: missing rights, missing counters and too few
// variants are reported as notes, never as failures.
#include <gtest/gtest.h>

#include "driver/profile/variant_evidence.h"

namespace optiml::profile {
namespace {

VariantProfile profiled(double ms, double dram_bytes, double ffma) {
    VariantProfile v;
    v.label = "v";
    v.measured_ms = ms;
    v.result.ok = true;
    v.result.counters = {{"dram__bytes_read.sum", dram_bytes},
                         {"dram__bytes_write.sum", 0.0},
                         {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", ffma},
                         {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 90.0}};
    v.result.pc_sampling_done = true;
    v.result.stalls = {{"k.cu", 7, "long_scoreboard", 90, false}, {"k.cu", 8, "wait", 10, false}};
    return v;
}

analysis::DeviceCeilings ceilings() {
    analysis::DeviceCeilings c;
    c.dram_bytes_per_s = 1e12;
    c.flops_per_s = {{"fp32", 1e13}};
    return c;
}

TEST(VariantEvidence, FullProfileGivesMetricsRooflineAndStalls) {
    const auto report = evidence_report("k", "GPU", profiled(1.0, 0.9e9, 1e6), ceilings(), {});
    ASSERT_TRUE(report.metrics && report.roofline && report.stalls);
    EXPECT_EQ(report.roofline->bound, analysis::Bound::Memory);
    EXPECT_NEAR(report.roofline->fraction_of_roof, 0.9, 1e-9);  // 0.9 GB at 1 TB/s in 1 ms
    ASSERT_EQ(report.stalls->dominant.size(), 1u);
    EXPECT_EQ(report.stalls->dominant[0].line, 7);
    EXPECT_TRUE(report.notes.empty());
}

TEST(VariantEvidence, NoProfilingRightsIsANoteAndTheReportHasNoCounters) {
    VariantProfile v = profiled(1.0, 1e9, 0);
    v.result.counters.clear();
    v.result.counters_permitted = false;
    v.result.counters_note = "no profiling rights on this GPU";
    v.result.pc_sampling_done = false;
    v.result.pc_sampling_note = "no profiling rights on this GPU: no stall samples";
    const auto report = evidence_report("k", "GPU", v, ceilings(), {});
    EXPECT_FALSE(report.metrics || report.roofline || report.stalls);
    ASSERT_EQ(report.notes.size(), 2u);
    EXPECT_NE(report.notes[0].find("rights"), std::string::npos);
}

TEST(VariantEvidence, AFailedProfileSaysWhy) {
    VariantProfile v;
    v.result.message = "load_error: bad image";
    const auto report = evidence_report("k", "GPU", v, ceilings(), {});
    ASSERT_EQ(report.notes.size(), 1u);
    EXPECT_NE(report.notes[0].find("bad image"), std::string::npos);
}

TEST(VariantEvidence, SelectionNeedsThreeVariantsAndSkipsFailedOnes) {
    std::vector<VariantProfile> variants{profiled(1.0, 1e9, 1), profiled(2.0, 2e9, 1)};
    analysis::CounterTable table;
    EXPECT_FALSE(select_over(variants, &table).has_value());
    EXPECT_EQ(table.rows.size(), 2u);
    VariantProfile failed;
    variants.push_back(failed);
    EXPECT_FALSE(select_over(variants).has_value());
    variants.push_back(profiled(3.0, 3.1e9, 1));
    variants.push_back(profiled(4.0, 3.9e9, 1));
    const auto selection = select_over(variants, &table);
    ASSERT_TRUE(selection.has_value());
    EXPECT_EQ(table.rows.size(), 4u);
    ASSERT_FALSE(selection->counters.empty());
    EXPECT_EQ(selection->counters[0].name,
              "dram__bytes_read.sum");  // the one that varies with time
}

}  // namespace
}  // namespace optiml::profile
