#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metrics.h"
#include "trace/run_data.h"

namespace tokenscope::analysis {

// What a load generator's results say about its own figures (docs/metrics.md, Load
// generators' own figures), as the client importers keep it in the run's workload JSON
// (import/client/tool_figures.h).

// Requests the tool left out of its figures (guidellm's warm-up and cool-down), by id.
struct ToolWindow {
    std::string tool, rule;
    std::optional<std::int64_t> start_ns, end_ns;
    std::vector<std::int64_t> warmup, cooldown;
};

// One figure the tool reported, and the Tokenscope figure it stands beside.
struct ToolFigure {
    std::string tool, file, field, label, definition;
    std::string metric;  // ttft, tpot, itl, e2e
    std::string stat;    // mean, std, p50, p90, p95, p99
    bool same_definition = true;
    double value_ns = 0;
    std::optional<double> recomputed_ns;  // the tool's rule on the records read
    std::string recomputed_from;
};

struct ClientFigures {
    std::optional<ToolWindow> window;
    std::vector<ToolFigure> figures;
};

// Empty for runs without them; malformed entries are skipped.
ClientFigures read_client_figures(const trace::RunInfo& info);

// The run without the requests the tool's window leaves out, and their steps.
trace::RunData inside_window(const trace::RunData& run, const ToolWindow& window);

// compute_metrics over the requests inside the tool's measurement window, when the run
// has one: the requests left out count as warm-up (RunMetrics::warmup_requests), before
// options.warmup_requests drops the first of the others. Without a window, compute_metrics.
RunMetrics windowed_metrics(const trace::RunData& run, const MetricsOptions& options = {});

// A difference larger than this fraction of the tool's figure is flagged unless the
// definitions explain it.
inline constexpr double kToolFigureTolerance = 0.01;

enum class FigureVerdict {
    Agrees,             // within 1 %
    DefinitionsDiffer,  // apart, and the tool's rule on the records gives its figure
    Differs,            // apart though the definitions agree
    Unexplained,        // apart, and the tool's rule on the records does not give its figure
    Unchecked,          // apart, and the tool's rule cannot be recomputed from the file
    NoFigure            // Tokenscope has no such figure (no samples)
};
std::string_view verdict_name(FigureVerdict v);  // "agrees", "definitions_differ", ...

struct FigureCheck {
    ToolFigure tool;
    std::string our_label;  // "Tokenscope ITL, the gaps between tokens"
    std::optional<double> ours_ns;
    std::optional<double> difference;  // (ours - tool) / |tool|
    FigureVerdict verdict = FigureVerdict::NoFigure;
    bool flagged = false;     // a difference over 1 % the definitions do not explain
    std::string explanation;  // one sentence
};

// Our figure for metric and stat ("itl", "p99"); nullopt when the metric has no samples.
std::optional<double> our_figure(const RunMetrics& m, std::string_view metric,
                                 std::string_view stat);
// "Tokenscope ITL, the gaps between tokens" (the definitions of docs/metrics.md).
std::string our_label(std::string_view metric);

std::vector<FigureCheck> check_tool_figures(const std::vector<ToolFigure>& figures,
                                            const RunMetrics& ours);

}  // namespace tokenscope::analysis
