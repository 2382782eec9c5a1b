#include "stored_heatmap.h"

#include <limits>

#include "store/lane_stream.h"
#include "store/store_reader.h"

namespace tokenscope::analysis {

Heatmap compute_stored_heatmap(const store::StoreReader& reader, const trace::RunData& run,
                               const HeatmapSpec& spec, const trace::StopToken& stop) {
    if (spec.metric != HeatmapMetric::KernelDuration) return compute_heatmap(run, spec, stop);
    const ActivityVisit visit = [&](const std::function<void(const trace::Activity&)>& each) {
        for (std::size_t lane = 0; lane < run.lanes.size(); ++lane) {
            stop.throw_if_stopped();
            std::uint32_t since_check = 0;
            store::LaneStream(reader, run.info.id, static_cast<std::uint16_t>(lane))
                .read_until(std::numeric_limits<std::int64_t>::max(),
                            [&](const trace::Activity& a) {
                                if (++since_check == 1u << 16) {
                                    since_check = 0;
                                    stop.throw_if_stopped();
                                }
                                each(a);
                            });
        }
    };
    return compute_heatmap(run, spec, visit, stop);
}

}  // namespace tokenscope::analysis
