#include "pm_sampler.h"

#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <cmath>
#include <exception>
#include <limits>
#include <utility>

#include "capture/driver_probe.h"
#include "clock_sampler.h"
#include "cupti_params.h"
#include "pm_host.h"
#include "pm_metric_catalog.h"
#include "trace/diagnostic.h"
#include "trace/lane.h"

namespace tokenscope::capture::cupti {

struct PmSampler::State {
    bool profiler_initialised = false;
    PmHost host;
    CUpti_PmSampling_Object* sampler = nullptr;
    bool started = false;
    std::vector<std::uint8_t> config;
    std::vector<std::uint8_t> counter_data;
    ClockMap clock;
    // The metrics in the config, in its order: decoding must ask for exactly these.
    std::vector<std::string> active;
    std::vector<Metric> slots;
};

namespace {

// CUPTI's PM timestamps share cuptiGetTimestamp's clock, which the tracer
// fits to the host the same way.
PmSampler::ClockMap fitted_clock() {
    ClockSampler sampler;
    sampler.sample();
    sampler.sample();
    return [fit = sampler.fit()](std::uint64_t gpu_ns) {
        return fit.map(static_cast<std::int64_t>(gpu_ns));
    };
}

std::string init_counter_data(CUpti_PmSampling_Object* sampler, std::vector<std::uint8_t>& data) {
    auto init = params<CUpti_PmSampling_CounterDataImage_Initialize_Params>(
        CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    init.pPmSamplingObject = sampler;
    init.counterDataSize = data.size();
    init.pCounterData = data.data();
    TS_PM_CALL(cuptiPmSamplingCounterDataImageInitialize, init);
    return {};
}

std::string configure_device(CUpti_PmSampling_Object* sampler, const PmSampler::Options& o,
                             const std::vector<std::string>& metrics,
                             const std::vector<std::uint8_t>& config,
                             std::vector<std::uint8_t>& counter_data) {
    auto set =
        params<CUpti_PmSampling_SetConfig_Params>(CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE);
    set.pPmSamplingObject = sampler;
    set.configSize = config.size();
    set.pConfig = config.data();
    set.hardwareBufferSize = o.hardware_buffer_bytes;
    set.samplingInterval = static_cast<std::uint64_t>(o.interval.count());
    // A fixed time base, not SYSCLK (whose frequency varies); Ampere GA10x and later.
    set.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    set.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_LATEST;
    TS_PM_CALL(cuptiPmSamplingSetConfig, set);

    std::vector<const char*> names = c_names(metrics);
    auto size = params<CUpti_PmSampling_GetCounterDataSize_Params>(
        CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE);
    size.pPmSamplingObject = sampler;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxSamples = o.max_samples;
    TS_PM_CALL(cuptiPmSamplingGetCounterDataSize, size);
    counter_data.assign(size.counterDataSize, 0);
    return init_counter_data(sampler, counter_data);
}

}  // namespace

std::vector<PmSampler::Rate> PmSampler::to_rates(std::span<const RawSample> samples,
                                                 const ClockMap& map) {
    std::vector<Rate> rates;
    for (const RawSample& s : samples) {
        if (s.end_ns <= s.start_ns) continue;
        const double seconds = static_cast<double>(s.end_ns - s.start_ns) * 1e-9;
        const std::int64_t t = map ? map(s.end_ns) : static_cast<std::int64_t>(s.end_ns);
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            const double bytes = s.bytes[m];
            if (std::isnan(bytes) || bytes < 0.0) continue;
            rates.push_back({static_cast<Metric>(m), t, bytes / seconds});
        }
    }
    return rates;
}

std::array<double, PmSampler::kMetricCount> PmSampler::to_slots(std::span<const double> values,
                                                                std::span<const Metric> slots) {
    std::array<double, kMetricCount> bytes;
    bytes.fill(std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < values.size() && i < slots.size(); ++i)
        bytes[static_cast<std::size_t>(slots[i])] = values[i];
    return bytes;
}

std::string PmSampler::lane_name(Metric metric, int device) {
    static const char* const kNames[] = {"PCIe read bytes/s", "PCIe write bytes/s",
                                         "NVLink RX bytes/s", "NVLink TX bytes/s"};
    return std::string(kNames[static_cast<int>(metric)]) + " (GPU " + std::to_string(device) + ")";
}

std::string PmSampler::explain(int result, const char* call) {
    switch (result) {
        case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
            return "profiling counters need privileges (NVreg_RestrictProfilingToAdminUsers=0 or "
                   "root)";
        case CUPTI_ERROR_NOT_SUPPORTED:
        case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_INVALID_CHIP_NAME:
        case CUPTI_ERROR_NOT_COMPATIBLE:
            return std::string("PM sampling is not supported by this GPU or driver (") + call + ")";
        default:
            break;
    }
    const char* text = nullptr;
    if (cuptiGetResultString(static_cast<CUptiResult>(result), &text) != CUPTI_SUCCESS || !text)
        text = "unknown CUPTI error";
    return std::string(call) + " failed: " + text + " (" + std::to_string(result) + ")";
}

PmSampler::PmSampler() : PmSampler(Options{}) {}

PmSampler::PmSampler(Options options) : options_(std::move(options)) {}

PmSampler::~PmSampler() {
    close();
}

std::string PmSampler::start(int device) {
    if (running()) return {};
    summary_.clear();
    // Without a driver CUPTI's profiler calls can hang or abort; ask the driver first.
    const DriverStatus driver = DriverProbe(options_.driver_library).probe();
    if (!driver.ok) return "no usable NVIDIA driver: " + driver.reason;
    if (device < 0 || device >= driver.device_count)
        return "no GPU " + std::to_string(device) + " (the driver sees " +
               std::to_string(driver.device_count) + ")";
    device_ = device;
    state_ = std::make_unique<State>();
    if (std::string why = open(device); !why.empty()) {
        close();
        return why;
    }
    return {};
}

std::string PmSampler::open(int device) {
    auto init =
        params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    TS_PM_CALL(cuptiProfilerInitialize, init);
    state_->profiler_initialised = true;
    PmHost::Chip chip;
    if (std::string why = PmHost::read_chip(device, &chip); !why.empty()) return why;
    const PmMetricCatalog catalog = PmHost::choose_metrics(chip);
    summary_ = catalog.summary();
    if (!catalog.any_active()) return catalog.failure();
    for (std::size_t m = 0; m < kMetricCount; ++m)
        if (const std::string& name = catalog.active(static_cast<Metric>(m)); !name.empty()) {
            state_->active.push_back(name);
            state_->slots.push_back(static_cast<Metric>(m));
        }
    if (std::string why = state_->host.open(chip); !why.empty()) return why;
    if (std::string why = state_->host.build_config(state_->active, state_->config); !why.empty())
        return why;
    auto enable =
        params<CUpti_PmSampling_Enable_Params>(CUpti_PmSampling_Enable_Params_STRUCT_SIZE);
    enable.deviceIndex = static_cast<std::size_t>(device);
    TS_PM_CALL(cuptiPmSamplingEnable, enable);
    state_->sampler = enable.pPmSamplingObject;
    if (std::string why = configure_device(state_->sampler, options_, state_->active,
                                           state_->config, state_->counter_data);
        !why.empty())
        return why;
    try {
        state_->clock = options_.clock ? options_.clock : fitted_clock();
    } catch (const std::exception& e) {
        return std::string("cannot read CUPTI's clock: ") + e.what();
    }
    auto start = params<CUpti_PmSampling_Start_Params>(CUpti_PmSampling_Start_Params_STRUCT_SIZE);
    start.pPmSamplingObject = state_->sampler;
    TS_PM_CALL(cuptiPmSamplingStart, start);
    state_->started = true;
    return {};
}

// Decodes until the hardware buffer is empty; the counter-data image holds
// max_samples at a time, so it is evaluated and reset whenever it fills.
std::string PmSampler::decode(std::vector<RawSample>* out) {
    State& st = *state_;
    for (;;) {
        auto dec = params<CUpti_PmSampling_DecodeData_Params>(
            CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE);
        dec.pPmSamplingObject = st.sampler;
        dec.pCounterDataImage = st.counter_data.data();
        dec.counterDataImageSize = st.counter_data.size();
        TS_PM_CALL(cuptiPmSamplingDecodeData, dec);
        auto info = params<CUpti_PmSampling_GetCounterDataInfo_Params>(
            CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
        info.pCounterDataImage = st.counter_data.data();
        info.counterDataImageSize = st.counter_data.size();
        TS_PM_CALL(cuptiPmSamplingGetCounterDataInfo, info);
        std::vector<const char*> names = c_names(st.active);
        std::vector<double> values(names.size());
        for (std::size_t i = 0; i < info.numCompletedSamples; ++i) {
            auto si = params<CUpti_PmSampling_CounterData_GetSampleInfo_Params>(
                CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE);
            si.pPmSamplingObject = st.sampler;
            si.pCounterDataImage = st.counter_data.data();
            si.counterDataImageSize = st.counter_data.size();
            si.sampleIndex = i;
            TS_PM_CALL(cuptiPmSamplingCounterDataGetSampleInfo, si);
            RawSample sample{si.startTimestamp, si.endTimestamp, {}};
            auto ev = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
                CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
            ev.pHostObject = st.host.get();
            ev.pCounterDataImage = st.counter_data.data();
            ev.counterDataImageSize = st.counter_data.size();
            ev.rangeIndex = i;
            ev.ppMetricNames = names.data();
            ev.numMetrics = names.size();
            ev.pMetricValues = values.data();
            TS_PM_CALL(cuptiProfilerHostEvaluateToGpuValues, ev);
            sample.bytes = to_slots(values, st.slots);
            out->push_back(sample);
        }
        if (std::string why = init_counter_data(st.sampler, st.counter_data); !why.empty())
            return why;
        if (dec.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL)
            return {};
    }
}

void PmSampler::write(store::RunWriter& writer, std::span<const RawSample> samples) {
    for (const Rate& r : to_rates(samples, state_->clock)) {
        auto [it, added] = lanes_.try_emplace(r.metric, 0);
        if (added)
            it->second = writer.add_lane({trace::LaneKind::Counter, device_, 0,
                                          100 + static_cast<std::int64_t>(r.metric),
                                          lane_name(r.metric, device_)});
        writer.add_counter({it->second, r.time_ns, r.bytes_per_s});
        ++samples_written_;
    }
}

void PmSampler::poll(store::RunWriter& writer) {
    if (!running()) return;
    std::vector<RawSample> samples;
    const std::string why = decode(&samples);
    write(writer, samples);
    if (!why.empty()) {
        writer.add_diagnostic({"pm_sampling_failed", trace::Severity::DataLoss, 1.0,
                               "CUPTI PM sampling stopped during capture: " + why});
        close();
    }
}

void PmSampler::stop(store::RunWriter& writer) {
    if (!running()) return;
    if (state_->started) {
        auto stop = params<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
        stop.pPmSamplingObject = state_->sampler;
        state_->started = false;
        if (CUptiResult r = cuptiPmSamplingStop(&stop); r != CUPTI_SUCCESS)
            writer.add_diagnostic({"pm_sampling_failed", trace::Severity::DataLoss, 1.0,
                                   "CUPTI PM sampling did not stop cleanly: " +
                                       explain(static_cast<int>(r), "cuptiPmSamplingStop")});
    }
    poll(writer);  // the hardware buffer still holds the last records
    close();
}

void PmSampler::close() noexcept {
    if (!state_) return;
    State& st = *state_;
    if (st.started) {
        auto stop = params<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
        stop.pPmSamplingObject = st.sampler;
        cuptiPmSamplingStop(&stop);
    }
    if (st.sampler) {
        auto disable =
            params<CUpti_PmSampling_Disable_Params>(CUpti_PmSampling_Disable_Params_STRUCT_SIZE);
        disable.pPmSamplingObject = st.sampler;
        cuptiPmSamplingDisable(&disable);
    }
    st.host.reset();
    if (st.profiler_initialised) {
        auto deinit = params<CUpti_Profiler_DeInitialize_Params>(
            CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
        cuptiProfilerDeInitialize(&deinit);
    }
    state_.reset();
}

}  // namespace tokenscope::capture::cupti
