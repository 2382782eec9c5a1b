#include "stored_heatmap.h"

#include "store/lane_stream.h"
#include "store/store_reader.h"

namespace tokenscope::analysis {

Heatmap compute_stored_heatmap(const store::StoreReader& reader, const trace::RunData& run,
                               const HeatmapSpec& spec, const trace::StopToken& stop) {
    if (spec.metric != HeatmapMetric::KernelDuration) return compute_heatmap(run, spec, stop);
    const ActivityVisit visit = [&](const std::function<void(const trace::Activity&)>& each) {
        store::for_each_stored_activity(reader, run.info.id, run.lanes.size(), each, stop);
    };
    return compute_heatmap(run, spec, visit, stop);
}

}  // namespace tokenscope::analysis
