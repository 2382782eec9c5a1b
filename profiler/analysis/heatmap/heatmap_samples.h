#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "heatmap.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

class KernelRoles;

// The samples of one heatmap: rows (labels in display order) and (row, time, value)
// triples. Step-based metrics are materialised (steps are few); kernel durations are
// streamed from the run's activities on every visit, so a 10M-activity run is never
// copied: names map to rows through a vector indexed by interned id.
class HeatmapSamples {
  public:
    // Throws std::invalid_argument when spec.rows does not fit spec.metric. `stop` is
    // checked here and on every for_each (trace::Cancelled). `visit`, when given, hands
    // over every activity of the run in place of run.activities (a run left in its file:
    // stored_heatmap.h); each call is one pass.
    HeatmapSamples(const trace::RunData& run, const HeatmapSpec& spec,
                   const trace::StopToken& stop = {}, ActivityVisit visit = {});

    const std::vector<std::string>& row_labels() const { return labels_; }
    std::int64_t min_time() const { return min_time_; }  // INT64_MAX when empty
    std::int64_t max_time() const { return max_time_; }  // INT64_MIN when empty
    bool empty() const { return min_time_ > max_time_; }

    // fn(row, time_ns, value_ns) for every sample.
    template <typename Fn>
    void for_each(Fn&& fn) const {
        if (!kernels_) {
            trace::for_index_stoppable(rows_.size(), stop_,
                                       [&](std::size_t i) { fn(rows_[i], times_[i], values_[i]); });
            return;
        }
        auto sample = [&](const trace::Activity& a) {
            std::int32_t row = kernel_row(a);
            if (row >= 0) fn(static_cast<std::uint32_t>(row), a.start_ns, double(a.duration_ns()));
        };
        if (visit_)
            visit_(sample);
        else
            trace::for_each_stoppable(run_.activities, stop_, sample);
    }

  private:
    std::vector<std::int32_t> rows_by_name(KernelRoles& roles) const;
    std::int32_t kernel_row(const trace::Activity& a) const {
        if (a.kind != trace::ActivityKind::Kernel || a.start_ns < kernel_cutoff_) return -1;
        if (by_lane_) return a.lane < row_of_id_.size() ? row_of_id_[a.lane] : -1;
        return a.name < row_of_id_.size() ? row_of_id_[a.name] : -1;
    }
    void build_kernel_rows(const HeatmapSpec& spec);
    void build_step_samples(const HeatmapSpec& spec);
    void add_keyed(std::int64_t key, std::int64_t time, double value);
    void assign_keyed_rows(const HeatmapSpec& spec);

    const trace::RunData& run_;
    trace::StopToken stop_;
    ActivityVisit visit_;
    bool kernels_ = false;
    bool by_lane_ = false;
    std::int64_t kernel_cutoff_ = std::numeric_limits<std::int64_t>::min();
    std::vector<std::int32_t> row_of_id_;  // name id (or lane) -> row, -1 = not shown
    std::vector<std::string> labels_;
    std::vector<std::int64_t> keys_;  // step metrics: grouping key per sample, then row
    std::vector<std::uint32_t> rows_;
    std::vector<std::int64_t> times_;
    std::vector<double> values_;
    std::int64_t min_time_ = std::numeric_limits<std::int64_t>::max();
    std::int64_t max_time_ = std::numeric_limits<std::int64_t>::min();
};

}  // namespace tokenscope::analysis
