#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "json/tree.h"
#include "trace/run_data.h"

namespace tokenscope::import::client {

// Files with only summary statistics (AIPerf's profile_export_aiperf.json,
// GenAI-Perf's profile_export_genai_perf.json, LLMPerf's *_summary.json, a
// guidellm report without request samples) open as a run without requests whose
// workload JSON holds "summary_metrics": {ttft, tpot, itl, e2e} as docs/metrics.md
// section 11 distributions in ns (count, mean, std, min, p50, p90, p95, p99, max;
// null where the tool does not write one), and a "summary_only" diagnostic.
class SummaryMetrics {
  public:
    // A tool's statistics of one metric, in its unit; nullopt where it has none.
    struct Stats {
        std::optional<double> count, mean, std, min, p50, p90, p95, p99, max;
    };
    // The keys of a tool's statistics object for mean, std, the percentiles and count.
    struct Keys {
        const char* mean;
        const char* std;
        const char* percentiles = nullptr;  // sub-object holding p50... (guidellm)
        const char* count = "count";
    };
    // The statistics of an object `stats` as `keys` name them (min, max, p50... as is).
    static Stats read(json::Value stats, const Keys& keys);

    // Values are scaled by ns_per_unit; a metric without any value is left out.
    void set(const std::string& metric, const Stats& stats, double ns_per_unit);
    bool empty() const { return metrics_.empty(); }
    // Writes them into run.info.workload_json (an object) and adds the diagnostic.
    void write(trace::RunData& run, const std::string& tool, const std::string& note) const;

  private:
    nlohmann::json metrics_ = nlohmann::json::object();
};

}  // namespace tokenscope::import::client
