#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sla_attainment.h"
#include "trace/request.h"

namespace tokenscope::analysis {

// A run as sweep analysis sees it: its requests and its workload JSON (for the
// serving model's tenant classes).
struct SweepRun {
    std::int64_t run_id = 0;
    std::vector<trace::Request> requests;
    std::string workload_json;
};

// One grid point with its counted runs.
struct SweepPointRuns {
    std::int32_t point = 0;
    std::map<std::string, std::string> params;  // as the sweep table stores them
    std::vector<SweepRun> runs;
};

// Per-run figures, by name: ttft_p50, ttft_p90, ttft_p99, ttft_mean, ttft_std,
// tpot_p50, tpot_p99, e2e_p50, e2e_p99 (ns), throughput_tok_s, request_rate (done
// requests/s), attainment (0..1), goodput (requests/s meeting the SLA).
using Figures = std::map<std::string, double>;

struct TenantAttainment {
    std::string name;
    double median = 0.0;  // over the point's runs
    double spread = 0.0;
};

// A point's figure is the median over its counted runs, its spread their standard
// deviation (population), docs/sweeps.md, Repeats.
struct SweepPointSummary {
    std::int32_t point = 0;
    std::map<std::string, std::string> params;
    std::vector<std::int64_t> run_ids;
    Figures median, spread;
    // Figures of all counted runs' requests pooled (a batch-1 point has one TTFT per
    // run, so its P90 and std only exist across the repeats).
    Figures pooled;
    std::vector<TenantAttainment> tenants;  // serving-model runs with tenant classes
};

Figures run_figures(const SweepRun& run, const SlaBounds& sla);
// Each tenant class is judged on its own SLA where it has one, else on `sla`.
std::vector<std::pair<std::string, double>> tenant_attainment(const SweepRun& run,
                                                              const SlaBounds& sla);
std::vector<SweepPointSummary> summarize_sweep(const std::vector<SweepPointRuns>& points,
                                               const SlaBounds& sla);
double median_of(std::vector<double> v);  // NaN when empty
double std_of(const std::vector<double>& v);

}  // namespace tokenscope::analysis
