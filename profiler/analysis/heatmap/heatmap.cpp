#include "heatmap.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "analysis/metrics/distribution.h"
#include "heatmap_samples.h"
#include "store/duration_histogram.h"

namespace tokenscope::analysis {
namespace {

std::atomic<std::uint64_t> g_heatmap_builds{0};

constexpr std::array<std::string_view, 9> kRowNames = {
    "kernel", "request", "phase", "position", "lane", "concurrency", "batch", "rank", "role"};
constexpr std::array<std::string_view, 4> kHeatmapMetricNames = {"step", "itl", "ttft", "kernel"};

std::int64_t run_start(const trace::RunData& run, const trace::StopToken& stop) {
    std::int64_t t = std::numeric_limits<std::int64_t>::max();
    for (const auto& s : run.steps) t = std::min(t, s.start_ns);
    for (const auto& r : run.requests) t = std::min(t, r.arrival_ns);
    if (run.in_file)
        if (auto first = run.in_file->totals.first_start_ns()) t = std::min(t, *first);
    trace::for_each_stoppable(run.activities, stop,
                              [&](const trace::Activity& a) { t = std::min(t, a.start_ns); });
    return t;
}

void check_columns(std::size_t columns) {
    if (columns > kMaxHeatmapColumns)
        throw std::invalid_argument("heatmap: " + std::to_string(columns) +
                                    " columns exceed the limit of " +
                                    std::to_string(kMaxHeatmapColumns) + "; use wider windows");
}

// Column boundaries; samples are placed by their time into [start, end).
class Windows {
  public:
    Windows(const trace::RunData& run, const HeatmapSpec& spec, const HeatmapSamples& samples,
            const trace::StopToken& stop) {
        if (spec.window_size <= 0)
            throw std::invalid_argument("heatmap: window size must be positive, got " +
                                        std::to_string(spec.window_size));
        if (samples.empty()) return;
        if (spec.window == WindowKind::Time)
            make_time(run, spec, samples, stop);
        else
            make_steps(run, spec, samples);
    }

    const std::vector<HeatmapWindow>& columns() const { return columns_; }

    // Column of a sample time, or -1 outside every window.
    std::int64_t column_of(std::int64_t t) const {
        if (columns_.empty() || t < columns_.front().start_ns || t >= columns_.back().end_ns)
            return -1;
        if (width_ > 0) return (t - columns_.front().start_ns) / width_;
        auto it = std::upper_bound(starts_.begin(), starts_.end(), t);
        return (it - starts_.begin()) - 1;
    }

  private:
    void make_time(const trace::RunData& run, const HeatmapSpec& spec,
                   const HeatmapSamples& samples, const trace::StopToken& stop) {
        width_ = spec.window_size;
        const std::int64_t origin = spec.origin_ns ? *spec.origin_ns : run_start(run, stop);
        if (samples.max_time() < origin) return;
        const auto n = static_cast<std::size_t>((samples.max_time() - origin) / width_ + 1);
        check_columns(n);
        for (std::size_t c = 0; c < n; ++c) {
            const std::int64_t s = origin + static_cast<std::int64_t>(c) * width_;
            columns_.push_back({s, s + width_});
        }
    }

    void make_steps(const trace::RunData& run, const HeatmapSpec& spec,
                    const HeatmapSamples& samples) {
        std::vector<std::int64_t> ends;
        for (const auto& s : run.steps) ends.push_back(s.end_ns);
        std::sort(ends.begin(), ends.end());
        const auto every = static_cast<std::size_t>(spec.window_size);
        starts_.push_back(ends.empty() ? samples.min_time()
                                       : std::min(ends.front(), samples.min_time()));
        for (std::size_t k = every; k < ends.size(); k += every)
            if (ends[k] > starts_.back()) starts_.push_back(ends[k]);  // equal times share one
        check_columns(starts_.size());
        const std::int64_t last =
            std::max(samples.max_time(), ends.empty() ? samples.max_time() : ends.back()) + 1;
        for (std::size_t c = 0; c < starts_.size(); ++c)
            columns_.push_back({starts_[c], c + 1 < starts_.size() ? starts_[c + 1] : last});
    }

    std::int64_t width_ = 0;  // > 0 for fixed-width time windows
    std::vector<std::int64_t> starts_;
    std::vector<HeatmapWindow> columns_;
};

// Counting sort of samples into cells, then one selection per cell: no per-cell vectors.
void fill_cells(Heatmap& map, const HeatmapSamples& samples, const Windows& windows,
                const trace::StopToken& stop) {
    const std::size_t cols = map.columns.size();
    std::vector<std::size_t> offset(map.cells.size() + 1, 0);
    samples.for_each([&](std::uint32_t row, std::int64_t t, double) {
        const std::int64_t c = windows.column_of(t);
        if (c >= 0) ++offset[row * cols + static_cast<std::size_t>(c) + 1];
    });
    for (std::size_t i = 1; i < offset.size(); ++i) offset[i] += offset[i - 1];
    std::vector<double> values(offset.back());
    std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
    samples.for_each([&](std::uint32_t row, std::int64_t t, double v) {
        const std::int64_t c = windows.column_of(t);
        if (c >= 0) values[next[row * cols + static_cast<std::size_t>(c)]++] = v;
    });
    trace::for_index_stoppable(map.cells.size(), stop, [&](std::size_t i) {
        const std::size_t n = offset[i + 1] - offset[i];
        map.cells[i].count = static_cast<std::int64_t>(n);
        if (n > 0) map.cells[i].value = percentile(std::span(values).subspan(offset[i], n), 95.0);
    });
}

// One pass: a duration histogram per cell, allocated as the cell's first sample comes.
void fill_cells_by_histogram(Heatmap& map, const HeatmapSamples& samples, const Windows& windows,
                             const trace::StopToken& stop) {
    const std::size_t cols = map.columns.size();
    std::vector<std::unique_ptr<store::DurationHistogram>> cells(map.cells.size());
    samples.for_each([&](std::uint32_t row, std::int64_t t, double v) {
        const std::int64_t c = windows.column_of(t);
        if (c < 0) return;
        auto& h = cells[row * cols + static_cast<std::size_t>(c)];
        if (!h) h = std::make_unique<store::DurationHistogram>();
        h->add(static_cast<std::int64_t>(v));
    });
    trace::for_index_stoppable(map.cells.size(), stop, [&](std::size_t i) {
        if (!cells[i]) return;
        map.cells[i].count = static_cast<std::int64_t>(cells[i]->count());
        map.cells[i].value = cells[i]->percentile(0.95);
    });
    map.value_error = store::DurationHistogram::kRelativeError;
}

Heatmap build(const trace::RunData& run, const HeatmapSpec& spec, const ActivityVisit& visit,
              const trace::StopToken& stop) {
    g_heatmap_builds.fetch_add(1, std::memory_order_relaxed);
    const HeatmapSamples samples(run, spec, stop, visit);
    const Windows windows(run, spec, samples, stop);
    Heatmap map;
    map.spec = spec;
    map.row_labels = samples.row_labels();
    map.columns = windows.columns();
    map.cells.resize(map.row_labels.size() * map.columns.size());
    // Durations streamed from a file are too many to hold: a histogram per cell.
    if (visit && spec.metric == HeatmapMetric::KernelDuration)
        fill_cells_by_histogram(map, samples, windows, stop);
    else
        fill_cells(map, samples, windows, stop);
    finish_heatmap(map);
    return map;
}

}  // namespace

Heatmap compute_heatmap(const trace::RunData& run, const HeatmapSpec& spec,
                        const trace::StopToken& stop) {
    return build(run, spec, {}, stop);
}

Heatmap compute_heatmap(const trace::RunData& run, const HeatmapSpec& spec,
                        const ActivityVisit& visit, const trace::StopToken& stop) {
    return build(run, spec, visit, stop);
}

std::uint64_t heatmap_builds() {
    return g_heatmap_builds.load(std::memory_order_relaxed);
}

void finish_heatmap(Heatmap& map) {
    const std::size_t cols = map.column_count();
    const std::size_t calib = sla_baseline_windows(map.spec, cols);
    map.sla_baseline = calib;
    map.row_sla.assign(map.row_count(), std::nullopt);
    map.row_flag.assign(map.row_count(), std::nullopt);
    map.min_value.reset();
    map.max_value.reset();
    for (std::size_t r = 0; r < map.row_count(); ++r) {
        std::optional<double> peak;
        for (std::size_t c = 0; c < cols; ++c) {
            const auto& p = map.at(r, c).value;
            if (!p) continue;
            if (c < calib) peak = std::max(peak.value_or(*p), *p);
            map.min_value = std::min(map.min_value.value_or(*p), *p);
            map.max_value = std::max(map.max_value.value_or(*p), *p);
        }
        if (!peak) continue;
        map.row_sla[r] = kSlaFactor * *peak;
        flag_recalibration(map, r, calib, *map.row_sla[r]);
    }
}

std::size_t sla_baseline_windows(const HeatmapSpec& spec, std::size_t columns) {
    if (columns == 0) return 0;
    if (spec.sla_windows == 0) return std::max<std::size_t>(1, columns / 2);
    return std::min(columns, spec.sla_windows);
}

void flag_recalibration(Heatmap& map, std::size_t r, std::size_t baseline, double sla) {
    map.row_flag[r].reset();
    const double limit = kRecalibrationFraction * sla;
    std::size_t run = 0;
    for (std::size_t c = baseline; c < map.column_count() && !map.row_flag[r]; ++c) {
        const auto& p = map.at(r, c).value;
        run = (p && *p > limit) ? run + 1 : 0;
        if (run == kRecalibrationRun) map.row_flag[r] = c + 1 - kRecalibrationRun;
    }
}

void judge_against(Heatmap& b, const Heatmap& a) {
    for (std::size_t r = 0; r < b.row_count(); ++r) {
        auto it = std::find(a.row_labels.begin(), a.row_labels.end(), b.row_labels[r]);
        if (it == a.row_labels.end()) continue;
        const auto& sla = a.row_sla[static_cast<std::size_t>(it - a.row_labels.begin())];
        b.row_sla[r] = sla;
        if (sla)
            flag_recalibration(b, r, 0, *sla);
        else
            b.row_flag[r].reset();
    }
}

std::string_view to_string(HeatmapRows rows) {
    return kRowNames[static_cast<std::size_t>(rows)];
}

std::string_view to_string(HeatmapMetric metric) {
    return kHeatmapMetricNames[static_cast<std::size_t>(metric)];
}

std::optional<HeatmapRows> heatmap_rows_from_string(std::string_view text) {
    for (std::size_t i = 0; i < kRowNames.size(); ++i)
        if (kRowNames[i] == text) return static_cast<HeatmapRows>(i);
    return std::nullopt;
}

std::optional<HeatmapMetric> heatmap_metric_from_string(std::string_view text) {
    for (std::size_t i = 0; i < kHeatmapMetricNames.size(); ++i)
        if (kHeatmapMetricNames[i] == text) return static_cast<HeatmapMetric>(i);
    return std::nullopt;
}

std::string request_row_label(std::int64_t request) {
    return "req " + std::to_string(request);
}

std::optional<std::int64_t> request_of_row_label(std::string_view label) {
    constexpr std::string_view kPrefix = "req ";
    if (label.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
    const std::string_view digits = label.substr(kPrefix.size());
    std::int64_t id = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
    if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return id;
}

}  // namespace tokenscope::analysis
