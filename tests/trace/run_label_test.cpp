// The one rule for a run's label: its name, or the fallback, and "(model)" on
// a cost-model run exactly once.
#include <gtest/gtest.h>

#include "trace/run_label.h"

using tokenscope::trace::run_label;
using tokenscope::trace::RunInfo;
using tokenscope::trace::Source;

TEST(RunLabel, ModelRunsAreMarkedOnce) {
    RunInfo info;
    info.source = Source::Model;
    info.name = "llama-8b on H100";
    EXPECT_EQ(run_label(info), "llama-8b on H100 (model)");
    info.name = "sample (model)";
    EXPECT_EQ(run_label(info), "sample (model)");
}

TEST(RunLabel, MeasuredRunsAreNotMarked) {
    RunInfo info;
    info.source = Source::Cpu;
    info.name = "cpu tiny";
    EXPECT_EQ(run_label(info), "cpu tiny");
}

TEST(RunLabel, UnnamedRunsTakeTheFallback) {
    RunInfo info;
    info.source = Source::Kineto;
    EXPECT_EQ(run_label(info), "(unnamed)");
    EXPECT_EQ(run_label(info, "trace.json"), "trace.json");
    info.source = Source::Model;
    EXPECT_EQ(run_label(info, "run.tokenscope"), "run.tokenscope (model)");
}
