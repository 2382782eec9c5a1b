#include "stored_diff.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "store/duration_histogram.h"
#include "store/lane_stream.h"
#include "store/store_reader.h"

namespace tokenscope::analysis {
namespace {

// Per-name counts and totals, exact, and durations in a histogram, of one activity kind.
class NameHistograms {
  public:
    void add(const trace::Activity& a) {
        if (a.name >= stats_.size()) {
            stats_.resize(a.name + 1);
            histograms_.resize(a.name + 1);
        }
        ++stats_[a.name].count;
        stats_[a.name].total_ns += a.duration_ns();
        histograms_[a.name].add(a.duration_ns());
    }

    std::vector<NameStats> finish() {
        for (std::size_t id = 0; id < stats_.size(); ++id) {
            NameStats& s = stats_[id];
            if (s.count == 0) continue;
            s.mean_ns = static_cast<double>(s.total_ns) / static_cast<double>(s.count);
            s.p95_ns = histograms_[id].percentile(0.95);
            s.p95_error = store::DurationHistogram::kRelativeError;
        }
        return std::move(stats_);
    }

  private:
    std::vector<NameStats> stats_;
    std::vector<store::DurationHistogram> histograms_;
};

// Where the stretches end: equal stretches of the run's time, from its lanes' bounds; the
// last takes everything after (INT64_MAX).
std::vector<std::int64_t> stretch_ends(const store::StoreReader& reader, const trace::RunData& run,
                                       std::int64_t per_stretch) {
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (std::size_t lane = 0; lane < run.lanes.size(); ++lane)
        if (auto b = reader.lane_bounds(run.info.id, static_cast<std::uint16_t>(lane))) {
            lo = std::min(lo, b->first);
            hi = std::max(hi, b->second);
        }
    std::vector<std::int64_t> ends;
    if (lo <= hi) {
        const std::int64_t k = std::max<std::int64_t>(
            1, (run.activity_totals().activities() + per_stretch - 1) / per_stretch);
        const auto span = static_cast<__int128>(hi) - lo;
        for (std::int64_t i = 1; i < k; ++i) {
            const auto t = static_cast<std::int64_t>(lo + span * i / k);
            if (ends.empty() || t > ends.back()) ends.push_back(t);
        }
    }
    ends.push_back(std::numeric_limits<std::int64_t>::max());
    return ends;
}

}  // namespace

ActivityFigures stored_activity_figures(const store::StoreReader& reader, const trace::RunData& run,
                                        const trace::ProgressFn& progress,
                                        const trace::StopToken& stop,
                                        std::int64_t stretch_activities) {
    NameHistograms kernels, ranges;
    WindowTimeStream windows(run);
    std::vector<std::unique_ptr<store::LaneStream>> lanes;
    for (std::size_t lane = 0; lane < run.lanes.size(); ++lane)
        lanes.push_back(std::make_unique<store::LaneStream>(reader, run.info.id,
                                                            static_cast<std::uint16_t>(lane)));
    const std::vector<std::int64_t> ends =
        stretch_ends(reader, run, std::max<std::int64_t>(1, stretch_activities));
    for (std::size_t k = 0; k < ends.size(); ++k) {
        stop.throw_if_stopped();
        for (auto& lane : lanes)
            lane->read_until(ends[k], [&](const trace::Activity& a) {
                if (a.kind == trace::ActivityKind::Kernel) kernels.add(a);
                if (a.kind == trace::ActivityKind::Range) ranges.add(a);
                windows.add(a);
            });
        // Every activity starting before the stretch's end is in: no later one can start
        // inside a window that ends by then.
        windows.close_before(ends[k]);
        if (progress &&
            !progress(static_cast<std::int64_t>(k + 1), static_cast<std::int64_t>(ends.size())))
            throw trace::Cancelled();
    }
    return {kernels.finish(), ranges.finish(), windows.finish()};
}

}  // namespace tokenscope::analysis
