// The 1 % rule of a load generator's figures beside ours, the measurement window, and the
// tools' aggregations (docs/metrics.md, Load generators' own figures). Every expected value
// is worked out in the comments.
#include <gtest/gtest.h>

#include "analysis/metrics/client_figures.h"
#include "import/client/tool_figures.h"

namespace {

using tokenscope::analysis::FigureVerdict;
using tokenscope::analysis::RunMetrics;
namespace client = tokenscope::import::client;
namespace stats = tokenscope::import::client::tool_stats;

// A run with one figure of `tool_ns` beside our ITL mean.
tokenscope::analysis::ToolFigure itl_mean(double tool_ns, bool same,
                                          std::optional<double> recomputed = std::nullopt) {
    tokenscope::analysis::ToolFigure f;
    f.tool = "T";
    f.metric = "itl";
    f.stat = "mean";
    f.same_definition = same;
    f.value_ns = tool_ns;
    f.recomputed_ns = recomputed;
    f.recomputed_from = "the records";
    return f;
}

RunMetrics ours_itl_mean(double ns) {
    RunMetrics m;
    m.itl.count = 10;
    m.itl.mean = ns;
    return m;
}

FigureVerdict verdict(const tokenscope::analysis::ToolFigure& f, const RunMetrics& m,
                      bool* flagged = nullptr) {
    auto checks = tokenscope::analysis::check_tool_figures({f}, m);
    if (flagged) *flagged = checks.at(0).flagged;
    return checks.at(0).verdict;
}

TEST(ClientFigures, OnePercentRule) {
    const RunMetrics m = ours_itl_mean(100.0);
    bool flagged = true;
    // 100 beside 100.9: 0.9 % apart.
    EXPECT_EQ(verdict(itl_mean(100.9, true), m, &flagged), FigureVerdict::Agrees);
    EXPECT_FALSE(flagged);
    // 100 beside 102: 2 % apart with one definition.
    EXPECT_EQ(verdict(itl_mean(102, true), m, &flagged), FigureVerdict::Differs);
    EXPECT_TRUE(flagged);
    // 25 % apart, the tool's rule on the records gives 133.5 for its 133: explained.
    EXPECT_EQ(verdict(itl_mean(133, false, 133.5), m, &flagged), FigureVerdict::DefinitionsDiffer);
    EXPECT_FALSE(flagged);
    // ... gives 120 for its 133 (9.8 % off): not explained.
    EXPECT_EQ(verdict(itl_mean(133, false, 120), m, &flagged), FigureVerdict::Unexplained);
    EXPECT_TRUE(flagged);
    // No rule to recompute: cannot be checked, flagged.
    EXPECT_EQ(verdict(itl_mean(133, false), m, &flagged), FigureVerdict::Unchecked);
    EXPECT_TRUE(flagged);
    // Defined apart but within 1 %: agrees.
    EXPECT_EQ(verdict(itl_mean(100.5, false), m), FigureVerdict::Agrees);
    // No ITL samples of ours.
    EXPECT_EQ(verdict(itl_mean(100, true), RunMetrics{}), FigureVerdict::NoFigure);
}

// Three requests of two tokens each, 10 ms apart; the tool's window leaves out the first.
tokenscope::trace::RunData three_requests() {
    using tokenscope::trace::Phase;
    tokenscope::trace::RunData run;
    constexpr std::int64_t ms = 1'000'000;
    for (std::int64_t id = 1; id <= 3; ++id) {
        const std::int64_t a = id * 1000 * ms, ttft = id * 100 * ms, gap = id * 10 * ms;
        run.requests.push_back({id, a, a + ttft, a + ttft + gap, 8, 2, false});
        run.steps.push_back({id, 0, Phase::Prefill, a, a + ttft, 0, {}});
        run.steps.push_back({id, 1, Phase::Decode, a + ttft, a + ttft + gap, 0, {}});
    }
    return run;
}

TEST(ClientFigures, WindowLeavesItsRequestsOutOfOurFigures) {
    auto run = three_requests();
    client::MeasurementWindow w;
    w.tool = "guidellm";
    w.warmup = {1};
    client::write_measurement_window(run, w);
    client::ToolFigure f{
        "guidellm", "b.json", "metrics.ttft.mean", "guidellm TTFT", "d", "ttft", "mean", true,
        250e6,      250e6,    "the records"};
    client::write_tool_figures(run, {f});
    auto figures = tokenscope::analysis::read_client_figures(run.info);
    ASSERT_TRUE(figures.window);
    EXPECT_EQ(figures.window->warmup, std::vector<std::int64_t>{1});
    ASSERT_EQ(figures.figures.size(), 1u);
    EXPECT_EQ(figures.figures[0].value_ns, 250e6);

    auto m = tokenscope::analysis::windowed_metrics(run);
    // TTFTs 200 and 300 ms inside; ITLs 20 and 30 ms.
    EXPECT_EQ(m.requests, 2);
    EXPECT_EQ(m.warmup_requests, 1);
    EXPECT_DOUBLE_EQ(m.ttft.mean, 250e6);
    EXPECT_DOUBLE_EQ(m.itl.mean, 25e6);
    EXPECT_EQ(tokenscope::analysis::check_tool_figures(figures.figures, m)[0].verdict,
              FigureVerdict::Agrees);
    // The run itself keeps all three.
    EXPECT_EQ(tokenscope::analysis::compute_metrics(run).requests, 3);
}

TEST(ClientFigures, ToolAggregations) {
    // numpy: linear between closest ranks; std with ddof 0.
    EXPECT_DOUBLE_EQ(*stats::numpy_stat({4, 1, 3, 2}, "p50"), 2.5);
    EXPECT_DOUBLE_EQ(*stats::numpy_stat({1, 2, 3, 4}, "p90"), 3.7);
    EXPECT_DOUBLE_EQ(*stats::numpy_stat({1, 3}, "std"), 1.0);
    EXPECT_FALSE(stats::numpy_stat({}, "mean"));
    // guidellm: cumulative probabilities 0.25, 0.5, 0.75, 1: p50 is 2 (no interpolation),
    // p90 is 4.
    const std::vector<stats::Weighted> even = {{4, 1}, {1, 1}, {3, 1}, {2, 1}};
    EXPECT_DOUBLE_EQ(*stats::guidellm_stat(even, "p50"), 2);
    EXPECT_DOUBLE_EQ(*stats::guidellm_stat(even, "p90"), 4);
    // Weights 1 and 3 (output tokens - 1): mean (10 + 3 * 20) / 4 = 17.5; p25 reaches
    // 0.25 at 10, p50 at 20. Equal values merge; zero weights drop out.
    const std::vector<stats::Weighted> weighted = {{10, 1}, {20, 1}, {20, 2}, {99, 0}};
    EXPECT_DOUBLE_EQ(*stats::guidellm_stat(weighted, "mean"), 17.5);
    EXPECT_DOUBLE_EQ(*stats::guidellm_stat(weighted, "p25"), 10);
    EXPECT_DOUBLE_EQ(*stats::guidellm_stat(weighted, "p50"), 20);
    EXPECT_FALSE(stats::guidellm_stat({{5, 0}}, "mean"));
}

}  // namespace
