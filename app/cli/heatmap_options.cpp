#include "heatmap_options.h"

#include <charconv>

namespace tokenscope::cli {

void add_heatmap_options(ArgParser& p) {
    p.option("rows", "KEY",
             "kernel, request, phase, position, lane, concurrency (requests in flight) or "
             "batch (iteration batch composition), rank (kernels by rank, a merged run), role "
             "(kernels by role: GEMM, attention, communication, ...; compares engines); "
             "default: phase for decode runs, kernel for traces");
    p.option("metric", "M",
             "step, itl, ttft or kernel (kernel duration); default: fits the rows (step, "
             "kernel; ttft for serving results)");
    p.option("window", "W",
             "column width: a time (100ms, 250us, 2s) or a step count (16steps); default: "
             "16steps for decode runs, else a time giving at least 8 windows");
    p.option("top", "N", "kernel rows: the N kernels with the most total time", "20");
    p.option("bucket", "N", "position rows: bucket width in tokens", "16");
    p.option("sla-windows", "N",
             "calibrate each row's SLA on the first N windows (0 = the first half); only later "
             "windows are flagged",
             "0");
    p.option("warmup", "N", "exclude the first N steps of each request (or requests for TTFT)",
             "0");
}

void parse_window(const std::string& text, analysis::HeatmapSpec& spec) {
    long long value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    std::string unit(ptr, text.data() + text.size());
    if (ec != std::errc() || value <= 0)
        throw UsageError{"heatmap: --window expects e.g. 100ms or 16steps, got '" + text + "'"};
    if (unit == "steps" || unit == "step") {
        spec.window = analysis::WindowKind::Steps;
        spec.window_size = value;
        return;
    }
    const long long scale = time_unit_ns(unit).value_or(0);
    if (scale == 0)
        throw UsageError{"heatmap: --window unit must be ns, us, ms, s or steps, got '" + text +
                         "'"};
    spec.window = analysis::WindowKind::Time;
    spec.window_size = value * scale;
}

analysis::HeatmapSpec heatmap_spec_from(const ArgParser& p, const analysis::HeatmapSpec& defaults) {
    analysis::HeatmapSpec spec = defaults;
    if (p.has("rows")) {
        auto rows = analysis::heatmap_rows_from_string(p.get("rows"));
        if (!rows) throw UsageError{"heatmap: unknown --rows '" + p.get("rows") + "'"};
        spec.rows = *rows;
    }
    if (p.has("metric")) {
        auto metric = analysis::heatmap_metric_from_string(p.get("metric"));
        if (!metric) throw UsageError{"heatmap: unknown --metric '" + p.get("metric") + "'"};
        spec.metric = *metric;
    }
    // Kernel and lane rows only make sense for kernel durations; say so rather than fail.
    bool kernel_rows = analysis::kernel_metric_rows(spec.rows);
    bool kernel_metric = spec.metric == analysis::HeatmapMetric::KernelDuration;
    if (!p.has("metric") && kernel_rows != kernel_metric)
        spec.metric = kernel_rows ? analysis::HeatmapMetric::KernelDuration
                                  : analysis::HeatmapMetric::StepLatency;
    if (kernel_rows != (spec.metric == analysis::HeatmapMetric::KernelDuration))
        throw UsageError{"heatmap: --rows " + p.get("rows") + " does not fit --metric " +
                         std::string(to_string(spec.metric)) +
                         " (kernel and lane rows need --metric kernel; request, phase, "
                         "position and concurrency rows need step, itl or ttft)"};
    if (p.has("window")) parse_window(p.get("window"), spec);
    spec.top_n = static_cast<std::size_t>(p.get_int("top"));
    spec.bucket_width = static_cast<std::int32_t>(p.get_int("bucket"));
    spec.sla_windows = static_cast<std::size_t>(p.get_int("sla-windows"));
    spec.warmup = static_cast<std::size_t>(p.get_int("warmup"));
    return spec;
}

}  // namespace tokenscope::cli
