// Issue 2's engine targets on a 10,000,000-activity model run stored in a real
// .tokenscope file: attribution of all steps including reading the file (<= 2 s),
// one heatmap (<= 1 s), percentiles of 1,000,000 samples (<= 0.1 s).
// Usage: engine_bench [activities (default 10000000)] [file (default /tmp/engine_bench.tokenscope)]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "analysis/attribution/attribution.h"
#include "analysis/heatmap/heatmap.h"
#include "analysis/metrics/distribution.h"
#include "capture/model/model_backend.h"
#include "store/store_reader.h"
#include "store/store_writer.h"

using namespace tokenscope;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double median_of(int reps, const std::function<void()>& fn) {
    std::vector<double> times;
    for (int i = 0; i < reps; ++i) {
        auto t = Clock::now();
        fn();
        times.push_back(seconds_since(t));
    }
    return median(times);
}

long peak_rss_kib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
    return 0;
}

capture::CaptureConfig config_for(std::int64_t tokens) {
    capture::CaptureConfig c;
    c.model = "llama-8b";
    c.gpu = "H100-SXM5";
    c.decode.batch = 8;
    c.decode.prompt_len = 512;
    c.decode.new_tokens = tokens;
    return c;
}

// Activities per decode iteration, learnt from a short run, sizes the long one.
std::int64_t tokens_for(std::int64_t target_activities) {
    auto small = capture::simulate_model_run(config_for(64));
    double per_token = double(small.activities.size()) / 64.0;
    return std::max<std::int64_t>(2, std::int64_t(double(target_activities) / per_token));
}

void row(const char* what, double value, const char* unit, const char* target) {
    std::printf("%-52s %12.3f %-6s %s\n", what, value, unit, target);
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t target = argc > 1 ? std::atoll(argv[1]) : 10'000'000;
    std::string path = argc > 2 ? argv[2] : "/tmp/engine_bench.tokenscope";
    std::remove(path.c_str());

    std::int64_t tokens = tokens_for(target);
    auto t0 = Clock::now();
    std::int64_t run_id = 0, written = 0;
    {
        store::StoreWriter store(path);
        trace::RunInfo info;
        auto writer = store.begin_run(info);
        capture::ModelBackend().run(config_for(tokens), *writer, {});
        run_id = writer->run_id();
        written = writer->activities_written();
    }
    double write_s = seconds_since(t0);
    std::printf(
        "model run: llama-8b, batch 8, %lld tokens per request, %lld activities, "
        "simulated and written in %.2f s\n\n",
        static_cast<long long>(tokens), static_cast<long long>(written), write_s);

    std::size_t steps = 0;
    double load_s = median_of(5, [&] {
        store::StoreReader reader(path);
        steps = reader.load_run(run_id).steps.size();
    });
    double attribute_total_s = median_of(5, [&] {
        store::StoreReader reader(path);
        auto run = reader.load_run(run_id);
        auto attributions = analysis::attribute_steps(run);
        if (attributions.size() != run.steps.size()) std::abort();
    });
    store::StoreReader reader(path);
    auto run = reader.load_run(run_id);
    double attribute_s = median_of(5, [&] { analysis::attribute_steps(run); });

    analysis::HeatmapSpec kernels;
    kernels.rows = analysis::HeatmapRows::Kernel;
    kernels.metric = analysis::HeatmapMetric::KernelDuration;
    kernels.window = analysis::WindowKind::Steps;
    kernels.window_size = 512;
    double heat_kernel_s = median_of(5, [&] { analysis::compute_heatmap(run, kernels); });
    analysis::HeatmapSpec positions;
    positions.rows = analysis::HeatmapRows::Position;
    positions.metric = analysis::HeatmapMetric::Itl;
    positions.window_size = 1'000'000'000;
    double heat_itl_s = median_of(5, [&] { analysis::compute_heatmap(run, positions); });

    std::mt19937_64 rng(42);
    std::lognormal_distribution<double> latency(15.0, 0.4);
    std::vector<double> samples(1'000'000);
    for (auto& s : samples) s = latency(rng);
    double pct_s = median_of(11, [&] {
        std::vector<double> copy = samples;
        analysis::summarize(copy);
    });

    std::printf("%-52s %12s %-6s %s\n", "measure (median of 5; percentiles of 11)", "value", "",
                "target");
    row("activities in the run", double(run.activities.size()), "", "10,000,000");
    row("steps in the run", double(steps), "", "");
    row("load_run (open + read + decode)", load_s, "s", "");
    row("attribution of all steps incl. reading the file", attribute_total_s, "s", "<= 2 s");
    row("attribution of all steps, run in memory", attribute_s, "s", "");
    row("heatmap: kernel rows x 512-step windows", heat_kernel_s, "s", "<= 1 s");
    row("heatmap: ITL by token position x 1 s windows", heat_itl_s, "s", "<= 1 s");
    row("percentiles of 1,000,000 samples (incl. copy)", pct_s, "s", "<= 0.1 s");
    row("peak resident memory", double(peak_rss_kib()) / 1024.0, "MiB", "");
    std::remove(path.c_str());
    return 0;
}
