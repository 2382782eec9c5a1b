#pragma once

#include <nlohmann/json.hpp>
#include <string>

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
    // `stats` holds the tool's statistics; keys name its fields for mean, std,
    // the percentiles and count; values are scaled by ns_per_unit.
    struct Keys {
        const char* mean;
        const char* std;
        const char* percentiles = nullptr;  // sub-object holding p50... (guidellm)
        const char* count = "count";
    };
    void set(const std::string& metric, const nlohmann::json& stats, const Keys& keys,
             double ns_per_unit);
    bool empty() const { return metrics_.empty(); }
    // Writes them into run.info.workload_json (an object) and adds the diagnostic.
    void write(trace::RunData& run, const std::string& tool, const std::string& note) const;

  private:
    nlohmann::json metrics_ = nlohmann::json::object();
};

}  // namespace tokenscope::import::client
