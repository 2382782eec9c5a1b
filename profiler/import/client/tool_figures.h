#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::import::client {

// A figure a load generator reported for its run, kept in the run's workload JSON
// ("tool_figures") so that stats shows it beside ours (docs/metrics.md, Load generators'
// own figures). `metric` and `stat` name the Tokenscope figure it stands beside;
// `same_definition` says whether the tool defines it as docs/metrics.md does; and
// `recomputed_ns` is the tool's own rule applied to the records read from the file,
// which shows whether the definitions explain a difference from ours.
struct ToolFigure {
    std::string tool;        // "LLMPerf"
    std::string file;        // the file the figure was read from (a summary beside the records)
    std::string field;       // the tool's key: "results_inter_token_latency_s_mean"
    std::string label;       // "LLMPerf inter-token latency, TTFT included"
    std::string definition;  // the tool's rule in words
    std::string metric;      // ttft, tpot, itl, e2e
    std::string stat;        // mean, std, p50, p90, p95, p99
    bool same_definition = true;
    double value_ns = 0;
    std::optional<double> recomputed_ns;
    std::string recomputed_from;  // what was recomputed, or why it could not be
};

// Requests a tool left out of its figures (guidellm's warm-up and cool-down), kept
// in the run and named by their request ids ("measurement_window").
struct MeasurementWindow {
    std::string tool;
    std::string rule;  // the tool's rule in words
    std::optional<std::int64_t> start_ns, end_ns;
    std::vector<std::int64_t> warmup, cooldown;
};

// Append to / set in run.info.workload_json (an object; created when it is not).
void write_tool_figures(trace::RunData& run, const std::vector<ToolFigure>& figures);
void write_measurement_window(trace::RunData& run, const MeasurementWindow& window);
// The load a run was made at, read from the tool's summary, for sweep points
// (serving/serving_points.h): "request_rate", "max_concurrency".
void write_load(trace::RunData& run, const char* key, std::optional<double> value);

// The tools' aggregations, to recompute their figures from the records.
namespace tool_stats {

// The summary statistics the tools write, in the order stats prints them.
inline constexpr const char* kStats[] = {"mean", "std", "p50", "p90", "p95", "p99"};
// p of "p50" .. "p99"; nullopt for mean and std.
std::optional<double> percent_of(const std::string& stat);

// numpy's mean / std (ddof 0) / percentile (linear between closest ranks), which
// pandas' quantile shares. nullopt for no values.
std::optional<double> numpy_stat(std::vector<double> values, const std::string& stat);

// guidellm's DistributionSummary.from_values (src/guidellm/schemas/statistics.py):
// values weighted, equal values merged, zero weights dropped; the mean is the
// weighted mean and percentile q the first value whose cumulative probability
// reaches q (numpy.searchsorted(cdf, q, side="left")).
struct Weighted {
    double value = 0, weight = 1;
};
std::optional<double> guidellm_stat(std::vector<Weighted> values, const std::string& stat);

}  // namespace tool_stats

}  // namespace tokenscope::import::client
