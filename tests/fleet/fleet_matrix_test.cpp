// The pieces of the fleet matrix on hand-worked cases: PromQL's histogram_quantile,
// window alignment, durations and times, increase() of raw counters, the matrix's
// blanks and the section 13 calibration.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "fleet/calibration.h"
#include "fleet/fleet_matrix.h"
#include "fleet/fleet_spec.h"
#include "fleet/histogram_quantile.h"
#include "fleet/openmetrics_reader.h"

namespace tokenscope::fleet {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(HistogramQuantile, InterpolatesLinearlyInsideTheBucket) {
    // 50 observations <= 1, 50 more <= 2: the 75th percentile is half-way into (1, 2].
    EXPECT_DOUBLE_EQ(histogram_quantile(0.75, {{1, 50}, {2, 100}, {kInf, 100}}), 1.5);
    // In the lowest bucket the lower bound is 0: rank 20 of 50 -> 0.4 x 1.
    EXPECT_DOUBLE_EQ(histogram_quantile(0.2, {{1, 50}, {2, 100}, {kInf, 100}}), 0.4);
    // Unsorted input and le="2" given twice (counts add) give the same answer.
    EXPECT_DOUBLE_EQ(histogram_quantile(0.75, {{kInf, 100}, {2, 40}, {1, 50}, {2, 60}}), 1.5);
}

TEST(HistogramQuantile, RankInTheInfBucketGivesTheHighestFiniteBound) {
    EXPECT_DOUBLE_EQ(histogram_quantile(0.99, {{1, 50}, {2, 90}, {kInf, 100}}), 2);
}

TEST(HistogramQuantile, UndefinedCasesAreNaN) {
    EXPECT_TRUE(std::isnan(histogram_quantile(0.5, {})));
    EXPECT_TRUE(std::isnan(histogram_quantile(0.5, {{1, 5}, {2, 10}})));    // no +Inf
    EXPECT_TRUE(std::isnan(histogram_quantile(0.5, {{kInf, 10}})));         // one bucket
    EXPECT_TRUE(std::isnan(histogram_quantile(0.5, {{1, 0}, {kInf, 0}})));  // no observations
    EXPECT_EQ(histogram_quantile(1.5, {{1, 5}, {kInf, 10}}), kInf);
}

TEST(HistogramQuantile, NonMonotonicCountsAreTakenAsTheirEnvelope) {
    // le=2 reads 40 < 50 (scraped out of step): treated as 50, so the 60th percentile
    // lies in (2, 4]: rank 60 -> 2 + 2 x (60 - 50) / (100 - 50) = 2.4.
    EXPECT_DOUBLE_EQ(histogram_quantile(0.6, {{1, 50}, {2, 40}, {4, 100}, {kInf, 100}}), 2.4);
}

TEST(FleetSpec, WindowsEndOnMultiplesOfTheWindowBeforeTheEnd) {
    FleetSpec spec;
    spec.range_s = 3 * 3600;
    spec.window_s = 3600;
    spec.end_s = 1'764'612'345;  // 18:05:45 UTC
    const auto ends = window_ends(spec);
    ASSERT_EQ(ends.size(), 3u);
    EXPECT_EQ(ends.back(), 1'764'612'000);
    EXPECT_EQ(ends.front(), 1'764'612'000 - 2 * 3600);
    spec.range_s = 5400;
    EXPECT_THROW(window_ends(spec), std::invalid_argument);
}

TEST(FleetSpec, DurationsAndTimes) {
    EXPECT_EQ(parse_duration("24h"), 86400);
    EXPECT_EQ(parse_duration("1h30m"), 5400);
    EXPECT_EQ(parse_duration("2d"), 172800);
    EXPECT_THROW(parse_duration("5"), std::invalid_argument);
    EXPECT_THROW(parse_duration("10ms"), std::invalid_argument);
    EXPECT_EQ(format_duration(10800), "3h");
    EXPECT_EQ(format_duration(5400), "1h30m");
    EXPECT_EQ(parse_time("1764612000"), 1764612000);
    EXPECT_EQ(parse_time("2025-12-01T18:00:00Z"), 1764612000);
    EXPECT_EQ(parse_time("2025-12-01T20:00:00.25+02:00"), 1764612000);
    EXPECT_EQ(format_rfc3339(1764612000), "2025-12-01T18:00:00Z");
    EXPECT_THROW(parse_time("2025-13-01T00:00:00Z"), std::invalid_argument);
    EXPECT_THROW(parse_time("yesterday"), std::invalid_argument);
}

TEST(FleetSpec, QueriesEscapeLabelValues) {
    FleetSpec spec;
    spec.metric = resolve_metric("ttft");
    spec.by = "model_name";
    EXPECT_EQ(spec.metric, "vllm:time_to_first_token_seconds");
    EXPECT_EQ(resolve_metric("my_latency_seconds_bucket"), "my_latency_seconds");
    EXPECT_THROW(resolve_metric("a b"), std::invalid_argument);
    EXPECT_EQ(bucket_increase_query(spec),
              "sum by (le, model_name) (increase(vllm:time_to_first_token_seconds_bucket[1h]))");
    EXPECT_EQ(promql_string("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
}

TEST(OpenMetricsReader, IncreaseExtrapolatesLikePrometheus) {
    // Samples at 10, 20, 30 s in a window [0, 40]: 20 s sampled, 10 s average gap; both
    // edges are within 1.1 gaps, so the increase 20 is stretched over 40 s -> 40, but
    // towards the start only to where the counter would reach zero: first value 10,
    // slope 1/s -> 10 s, which is exactly the edge here.
    const std::string text =
        "# TYPE m histogram\n"
        "m_bucket{le=\"+Inf\",job=\"a\"} 10 10\nm_bucket{le=\"+Inf\",job=\"a\"} 20 20\n"
        "m_bucket{le=\"+Inf\",job=\"a\"} 30 30\n# EOF\n";
    const QueryResult raw = read_openmetrics_buckets(text, "m");
    ASSERT_EQ(raw.series.size(), 1u);
    FleetSpec spec;
    spec.by = "job";
    spec.window_s = 40;
    const QueryResult inc = bucket_increases(raw, spec, {40});
    ASSERT_EQ(inc.series.size(), 1u);
    ASSERT_EQ(inc.series[0].points.size(), 1u);
    EXPECT_DOUBLE_EQ(inc.series[0].points[0].v, 40);
    // A counter reset (30 -> 5) adds the value before it back: 10 + 30 + 5 - 10 = ...
    const std::string reset =
        "m_bucket{le=\"+Inf\"} 10 10\nm_bucket{le=\"+Inf\"} 30 20\nm_bucket{le=\"+Inf\"} 5 30\n";
    spec.window_s = 20;  // [10, 30]: exactly the samples, no extrapolation
    const QueryResult r2 = bucket_increases(read_openmetrics_buckets(reset, "m"), spec, {30});
    ASSERT_EQ(r2.series.size(), 1u);
    EXPECT_DOUBLE_EQ(r2.series[0].points[0].v, 25);  // 30 - 10 before the reset, then 5
}

TEST(OpenMetricsReader, MalformedLinesNameTheLine) {
    EXPECT_THROW(read_openmetrics_buckets("m_bucket{le=\"1\"} 3\n", "m"), std::invalid_argument);
    EXPECT_THROW(read_openmetrics_buckets("# x\nm_bucket{le=\"1} 3 4\n", "m"),
                 std::invalid_argument);
    EXPECT_THROW(read_openmetrics_buckets("m_bucket{le=\"1\"} abc 4\n", "m"),
                 std::invalid_argument);
    EXPECT_NO_THROW(read_openmetrics_buckets("other_metric 3\n", "m"));
}

QueryResult two_window_buckets() {
    QueryResult r;
    // Row a: window 100 has 50 <= 1 s, 100 total; window 200 has no observations.
    r.series.push_back({{{"le", "1"}, {"job", "a"}}, {{100, 50}, {200, 0}}});
    r.series.push_back({{{"le", "+Inf"}, {"job", "a"}}, {{100, 100}, {200, 0}}});
    // Row b: only window 200, and a NaN point at 100 (stale) that must not count.
    r.series.push_back({{{"le", "1"}, {"job", "b"}}, {{100, NAN}, {200, 10}}});
    r.series.push_back({{{"le", "+Inf"}, {"job", "b"}}, {{200, 10}}});
    r.series.push_back({{{"job", "b"}}, {{200, 99}}});  // no le: ignored, as in PromQL
    return r;
}

TEST(FleetMatrix, CellsAreQuantilesAndWindowsWithoutObservationsAreBlank) {
    FleetSpec spec;
    spec.by = "job";
    spec.window_s = 100;
    spec.quantile = 0.75;
    const FleetMatrix m = build_fleet_matrix(two_window_buckets(), spec, {100, 200});
    ASSERT_EQ(m.map.row_count(), 2u);
    EXPECT_EQ(m.map.row_labels[0], "a");
    // The 75th of 100: rank 75 in (1, +Inf] -> the highest finite bound, 1 s.
    EXPECT_DOUBLE_EQ(*m.map.at(0, 0).value, 1e9);
    EXPECT_EQ(m.map.at(0, 0).count, 100);
    EXPECT_FALSE(m.map.at(0, 1).value);
    EXPECT_FALSE(m.map.at(1, 0).value);
    EXPECT_DOUBLE_EQ(*m.map.at(1, 1).value, 0.75e9);  // 10 <= 1 s: rank 7.5 of 10 in (0, 1]
    EXPECT_EQ(m.map.columns[1].start_ns, 100'000'000'000);
}

TEST(Calibration, ThreeEvaluationsAboveStartItAndAStableProposalSettles) {
    const std::vector<std::int64_t> ends = {1, 2, 3, 4, 5, 6, 7};
    // Threshold 10: 13, 14, 13 exceed 12 (1.2 x 10) three times running -> start at
    // window 3, proposal 1.2 x 14; window 4 (blank) proposes nothing; window 5 peaks
    // again at 14 -> the same proposal, settled.
    const std::vector<std::optional<double>> p95 = {5, 13, 14, 13, std::nullopt, 12.5, 6};
    RowCalibration c = calibrate_row(p95, ends, 10.0);
    EXPECT_EQ(c.state, CalibrationState::Settled);
    EXPECT_EQ(c.started_at, 3u);
    EXPECT_EQ(c.settled_at, 5u);
    EXPECT_DOUBLE_EQ(*c.threshold, 1.2 * 14);
    // A rising P95 moves the proposal more than 5% each time: still settling.
    c = calibrate_row({13, 14, 16, 18, 21}, {1, 2, 3, 4, 5}, 10.0);
    EXPECT_EQ(c.state, CalibrationState::Settling);
    EXPECT_DOUBLE_EQ(*c.proposal, 1.2 * 21);
    EXPECT_DOUBLE_EQ(*c.threshold, 10);
    // Two above, a blank, one above: no run of three.
    EXPECT_EQ(calibrate_row({13, 13, std::nullopt, 13}, {1, 2, 3, 4}, 10.0).state,
              CalibrationState::None);
}

TEST(Calibration, ProposalLooksBackTwentyFourHoursOnly) {
    // Hourly windows: a 100 at hour 0 is outside the 24 h before hour 26.
    std::vector<std::int64_t> ends;
    std::vector<std::optional<double>> p95;
    for (int h = 0; h < 30; ++h) {
        ends.push_back(h * 3600);
        p95.push_back(h == 0 ? 100.0 : h >= 24 ? 20.0 : 5.0);
    }
    const RowCalibration c = calibrate_row(p95, ends, 10.0);
    EXPECT_EQ(c.state, CalibrationState::Settled);
    EXPECT_EQ(c.started_at, 26u);
    EXPECT_DOUBLE_EQ(*c.threshold, 1.2 * 20);
}

}  // namespace
}  // namespace tokenscope::fleet
