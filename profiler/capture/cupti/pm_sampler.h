#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "store/run_writer.h"

namespace tokenscope::capture::cupti {

// Opt-in CUPTI PM sampling of PCIe and NVLink throughput (docs/capture.md, Counters).
// NVML's field counters are the default source; this one needs profiling
// privileges, so every failure is a reason string, never an exception, and the
// capture goes on without it. The RunWriter belongs to the tracer's writer
// thread: poll() and stop() are called there (TracerOptions::on_writer_tick).
class PmSampler {
  public:
    enum class Metric : std::uint8_t { PcieRead, PcieWrite, NvlinkRx, NvlinkTx };
    static constexpr std::size_t kMetricCount = 4;
    // Hopper metric names, in Metric order; each is bytes moved within one sample.
    // Only the first choice: start() probes the chip's own base metrics
    // (PmMetricCatalog) and a slot whose metric the chip lacks stays off.
    static constexpr std::array<const char*, kMetricCount> kMetricNames = {
        "pcie__read_bytes.sum", "pcie__write_bytes.sum", "nvlrx__bytes.sum", "nvltx__bytes.sum"};

    // One decoded hardware sample: GPU timestamps (ns) and bytes per metric
    // (NaN where CUPTI could not evaluate the metric).
    struct RawSample {
        std::uint64_t start_ns = 0;
        std::uint64_t end_ns = 0;
        std::array<double, kMetricCount> bytes{};
    };
    struct Rate {
        Metric metric;
        std::int64_t time_ns;  // the sample's end, in the run's clock
        double bytes_per_s;
    };
    using ClockMap = std::function<std::int64_t(std::uint64_t gpu_ns)>;

    // bytes / (end - start); samples without a positive duration and metrics
    // that are NaN or negative are skipped.
    static std::vector<Rate> to_rates(std::span<const RawSample> samples, const ClockMap& map);
    // "PCIe read bytes/s (GPU 0)", "NVLink TX bytes/s (GPU 1)", ...
    static std::string lane_name(Metric metric, int device);
    // The reason start() gives for a failed CUPTI call (result is a CUptiResult).
    static std::string explain(int result, const char* call);
    // Spreads values evaluated for the active metrics (values[i] belongs to
    // slots[i]) into Metric order; slots that are off get NaN.
    static std::array<double, kMetricCount> to_slots(std::span<const double> values,
                                                     std::span<const Metric> slots);

    struct Options {
        std::chrono::nanoseconds interval{10'000'000};  // one sample per 10 ms
        std::size_t hardware_buffer_bytes = 64u << 20;  // device-side record buffer
        std::uint32_t max_samples = 1024;               // decoded per counter-data image
        std::string driver_library = "libcuda.so.1";    // probed before any CUPTI call
        ClockMap clock;  // GPU ns -> run ns; default: CUPTI's clock fitted to CLOCK_MONOTONIC_RAW
    };

    PmSampler();
    explicit PmSampler(Options options);
    ~PmSampler();
    PmSampler(const PmSampler&) = delete;
    PmSampler& operator=(const PmSampler&) = delete;

    // Empty on success; otherwise why PM sampling cannot run (no driver, no
    // privileges, unsupported GPU). Nothing is written either way.
    std::string start(int device);
    // After start(): which metric names are active and why the other slots are
    // off (for an info diagnostic); empty if start() failed before choosing.
    const std::string& summary() const { return summary_; }
    // Decodes what the hardware buffer holds into Counter lanes. A decode
    // failure ends sampling with a "pm_sampling_failed" diagnostic.
    void poll(store::RunWriter& writer);
    // Stops the hardware, decodes the rest and releases CUPTI's objects.
    void stop(store::RunWriter& writer);

    bool running() const { return state_ != nullptr; }
    std::int64_t samples_written() const { return samples_written_; }

  private:
    struct State;  // CUPTI objects and images; defined where cupti.h is included

    std::string open(int device);
    std::string decode(std::vector<RawSample>* out);
    void write(store::RunWriter& writer, std::span<const RawSample> samples);
    void close() noexcept;

    Options options_;
    int device_ = 0;
    std::unique_ptr<State> state_;
    std::map<Metric, std::uint16_t> lanes_;
    std::int64_t samples_written_ = 0;
    std::string summary_;
};

}  // namespace tokenscope::capture::cupti
