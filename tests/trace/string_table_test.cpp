#include "trace/string_table.h"

#include <gtest/gtest.h>

#include "trace/activity.h"
#include "trace/run_data.h"

using namespace tokenscope::trace;

TEST(StringTable, InternsOnceAndKeepsViewsValidWhileGrowing) {
    StringTable t;
    EXPECT_EQ(t.intern(""), 0u);
    auto a = t.intern("gemv_fp16");
    std::string_view first = t.str(a);
    for (int i = 0; i < 10000; ++i) t.intern("k" + std::to_string(i));
    EXPECT_EQ(t.intern("gemv_fp16"), a);
    EXPECT_EQ(first, "gemv_fp16");
    EXPECT_EQ(t.size(), 10002u);
    EXPECT_EQ(t.find("missing"), StringTable::kAbsent);
}

TEST(StringTable, CopyHasItsOwnIndex) {
    StringTable t;
    auto id = t.intern("rmsnorm");
    StringTable c = t;
    t.intern("other");
    EXPECT_EQ(c.find("rmsnorm"), id);
    EXPECT_EQ(c.find("other"), StringTable::kAbsent);
    EXPECT_EQ(c.intern("x"), 2u);
}

TEST(StringTable, AssignPlacesIdsAsStored) {
    StringTable t;
    t.assign(5, "five");
    t.assign(2, "two");
    EXPECT_EQ(t.str(5), "five");
    EXPECT_EQ(t.find("two"), 2u);
    EXPECT_EQ(t.intern("six"), 6u);
}

TEST(EnumNames, RoundTrip) {
    for (auto k :
         {ActivityKind::Kernel, ActivityKind::Memcpy, ActivityKind::Memset, ActivityKind::Api,
          ActivityKind::Sync, ActivityKind::Range, ActivityKind::Marker})
        EXPECT_EQ(activity_kind_from_string(to_string(k)), k);
    EXPECT_EQ(to_string(CopyKind::P2P), "p2p");
    EXPECT_FALSE(copy_kind_from_string("sideways").has_value());
}

TEST(Activity, StaysCompact) {
    EXPECT_LE(sizeof(Activity), 48u);
}

TEST(RunData, CountDiagnosticAccumulatesAndRaisesSeverity) {
    RunData r;
    r.count_diagnostic("skipped_events", Severity::Info, 2, "bad events");
    r.count_diagnostic("skipped_events", Severity::DataLoss, 3, "bad events");
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].value, 5);
    EXPECT_EQ(r.diagnostics[0].severity, Severity::DataLoss);
}

TEST(GpuInfo, RidgeAndPcie) {
    GpuInfo g;
    g.peak_flops = 989e12;
    g.peak_bandwidth = 3.35e12;
    g.pcie_generation = 5;
    g.pcie_width = 16;
    EXPECT_NEAR(g.ridge_point(), 295.22, 0.01);
    EXPECT_NEAR(g.pcie_bandwidth(), 63.0e9, 0.1e9);
}
