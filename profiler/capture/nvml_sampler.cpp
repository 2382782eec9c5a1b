#include "nvml_sampler.h"

#include <dlfcn.h>

#include <climits>
#include <ctime>
#include <utility>

namespace tokenscope::capture {
namespace {

static_assert(sizeof(NvmlSampler::FieldValue) == 40, "must match nvmlFieldValue_t");

constexpr int kSuccess = 0;
constexpr int kPcieUtilTx = 0;  // nvmlPcieUtilCounter_t
constexpr int kPcieUtilRx = 1;
constexpr unsigned int kAllLinks = UINT_MAX;  // NVLink scope: the GPU-wide aggregate

std::int64_t monotonic_raw_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

template <typename Fn>
Fn symbol(void* library, const char* name) {
    return reinterpret_cast<Fn>(dlsym(library, name));
}

// Cumulative counters come back as whatever integer type the driver chose.
bool as_counter(const NvmlSampler::FieldValue& v, unsigned long long* out) {
    switch (v.value_type) {
        case 1:
            *out = v.value.ui;
            return true;
        case 2:
            *out = v.value.ul;
            return true;
        case 3:
            *out = v.value.ull;
            return true;
        case 4:
            *out = static_cast<unsigned long long>(v.value.sll);
            return v.value.sll >= 0;
        case 5:
            *out = static_cast<unsigned long long>(v.value.si);
            return v.value.si >= 0;
        default:
            return false;
    }
}

trace::Diagnostic unavailable(const std::string& why) {
    return {"nvml_unavailable", trace::Severity::Info, 1.0,
            "PCIe/NVLink counters unavailable: " + why};
}

}  // namespace

NvmlSampler::Api NvmlSampler::load(std::string* reason) {
    Api api;
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        if (reason) *reason = "libnvidia-ml.so.1 not found";
        return api;
    }
    api.library = lib;
    api.init = symbol<int (*)()>(lib, "nvmlInit_v2");
    api.shutdown = symbol<int (*)()>(lib, "nvmlShutdown");
    api.device_count = symbol<int (*)(unsigned int*)>(lib, "nvmlDeviceGetCount_v2");
    api.device_handle = symbol<int (*)(unsigned int, void**)>(lib, "nvmlDeviceGetHandleByIndex_v2");
    api.field_values = symbol<int (*)(void*, int, FieldValue*)>(lib, "nvmlDeviceGetFieldValues");
    api.pcie_throughput =
        symbol<int (*)(void*, int, unsigned int*)>(lib, "nvmlDeviceGetPcieThroughput");
    if (!api.init || !api.shutdown || !api.device_count || !api.device_handle) {
        if (reason) *reason = "libnvidia-ml.so.1 lacks nvmlInit_v2 or the device queries";
        dlclose(lib);
        return {};
    }
    return api;
}

std::string NvmlSampler::lane_name(Metric metric, int device) {
    static const char* const kNames[] = {"PCIe TX bytes/s", "PCIe RX bytes/s", "NVLink TX bytes/s",
                                         "NVLink RX bytes/s"};
    return std::string(kNames[static_cast<int>(metric)]) + " (GPU " + std::to_string(device) + ")";
}

NvmlSampler::NvmlSampler() : NvmlSampler(Api{}, Options{}) {
    load_reason_.clear();
    api_ = load(&load_reason_);
}

NvmlSampler::NvmlSampler(Api api) : NvmlSampler(api, Options{}) {}

NvmlSampler::NvmlSampler(Api api, Options options) : api_(api), options_(std::move(options)) {
    if (!options_.clock) options_.clock = monotonic_raw_ns;
    if (!api_.init && load_reason_.empty()) load_reason_ = "libnvidia-ml.so.1 not found";
}

NvmlSampler::~NvmlSampler() {
    stop();
    if (initialised_ && api_.shutdown) api_.shutdown();
    if (api_.library) dlclose(api_.library);
}

bool NvmlSampler::start() {
    if (running()) return true;
    if (!api_.init) {
        note(unavailable(load_reason_));
        return false;
    }
    if (!open_devices()) return false;
    stopping_ = false;
    thread_ = std::thread([this] { loop(); });
    return true;
}

bool NvmlSampler::open_devices() {
    if (!initialised_) {
        if (int rc = api_.init(); rc != kSuccess) {
            note(unavailable("nvmlInit failed (NVML error " + std::to_string(rc) + ")"));
            return false;
        }
        initialised_ = true;
    }
    unsigned int count = 0;
    if (api_.device_count(&count) != kSuccess || count == 0) {
        note(unavailable("NVML sees no GPU"));
        return false;
    }
    devices_.clear();
    for (unsigned int i = 0; i < count; ++i) {
        void* handle = nullptr;
        if (api_.device_handle(i, &handle) == kSuccess) devices_.push_back(handle);
    }
    fields_ok_.assign(devices_.size(), api_.field_values != nullptr);
    pcie_fields_ok_ = fields_ok_;
    if (devices_.empty()) {
        note(unavailable("NVML returned no device handle"));
        return false;
    }
    return true;
}

void NvmlSampler::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void NvmlSampler::loop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        const std::int64_t now = options_.clock();
        for (std::size_t i = 0; i < devices_.size(); ++i) sample_device(i, now);
        lock.lock();
        wake_.wait_for(lock, options_.interval, [this] { return stopping_; });
    }
}

void NvmlSampler::sample_device(std::size_t index, std::int64_t now_ns) {
    if (fields_ok_[index]) sample_fields(index, now_ns);
    // Drivers before the PCIe byte fields (R550) only offer the 20 ms throughput call.
    if (!pcie_fields_ok_[index] && api_.pcie_throughput) sample_throughput(index, now_ns);
}

void NvmlSampler::sample_fields(std::size_t index, std::int64_t now_ns) {
    static constexpr std::pair<unsigned int, Metric> kFields[] = {{kPcieTxBytes, Metric::PcieTx},
                                                                  {kPcieRxBytes, Metric::PcieRx},
                                                                  {kNvlinkTxKib, Metric::NvlinkTx},
                                                                  {kNvlinkRxKib, Metric::NvlinkRx}};
    FieldValue values[4];
    for (int f = 0; f < 4; ++f) {
        values[f].field_id = kFields[f].first;
        values[f].scope_id =
            kFields[f].first == kNvlinkTxKib || kFields[f].first == kNvlinkRxKib ? kAllLinks : 0;
    }
    if (api_.field_values(devices_[index], 4, values) != kSuccess) {
        fields_ok_[index] = false;
        pcie_fields_ok_[index] = false;
        return;
    }
    const int device = static_cast<int>(index);
    for (int f = 0; f < 4; ++f) {
        const Metric metric = kFields[f].second;
        unsigned long long counter = 0;
        if (values[f].result != kSuccess || !as_counter(values[f], &counter)) continue;
        Previous& prev = previous_[{index, metric}];
        const bool nvlink = metric == Metric::NvlinkTx || metric == Metric::NvlinkRx;
        // NVML's own timestamps time the counter reads; the host clock is the fallback.
        const double seconds = values[f].timestamp_us > prev.timestamp_us && prev.timestamp_us > 0
                                   ? (values[f].timestamp_us - prev.timestamp_us) * 1e-6
                                   : (now_ns - prev.host_ns) * 1e-9;
        // A counter that went backwards was reset: restart from this reading.
        if (prev.valid && counter >= prev.value && seconds > 0.0) {
            const double delta =
                static_cast<double>(counter - prev.value) * (nvlink ? 1024.0 : 1.0);
            push(device, metric, now_ns, delta / seconds);
        }
        prev = {true, counter, values[f].timestamp_us, now_ns};
    }
    if (values[0].result != kSuccess && values[1].result != kSuccess)
        pcie_fields_ok_[index] = false;
}

void NvmlSampler::sample_throughput(std::size_t index, std::int64_t now_ns) {
    unsigned int tx_kb = 0, rx_kb = 0;
    const int device = static_cast<int>(index);
    if (api_.pcie_throughput(devices_[index], kPcieUtilTx, &tx_kb) == kSuccess)
        push(device, Metric::PcieTx, now_ns, tx_kb * 1000.0);
    if (api_.pcie_throughput(devices_[index], kPcieUtilRx, &rx_kb) == kSuccess)
        push(device, Metric::PcieRx, now_ns, rx_kb * 1000.0);
}

void NvmlSampler::push(int device, Metric metric, std::int64_t time_ns, double value) {
    std::lock_guard lock(mutex_);
    ++taken_;
    if (pending_.size() >= options_.max_buffered) {
        ++lost_;
        return;
    }
    pending_.push_back({device, metric, time_ns, value});
}

void NvmlSampler::note(trace::Diagnostic diagnostic) {
    std::lock_guard lock(mutex_);
    diagnostics_.push_back(std::move(diagnostic));
}

std::int64_t NvmlSampler::samples_taken() const {
    std::lock_guard lock(mutex_);
    return taken_;
}

void NvmlSampler::drain(store::RunWriter& writer) {
    std::vector<Pending> samples;
    std::vector<trace::Diagnostic> diagnostics;
    std::int64_t lost = 0;
    {
        std::lock_guard lock(mutex_);
        samples.swap(pending_);
        diagnostics.swap(diagnostics_);
        std::swap(lost, lost_);
    }
    for (const auto& d : diagnostics) writer.add_diagnostic(d);
    if (lost > 0)
        writer.add_diagnostic({"nvml_samples_lost", trace::Severity::DataLoss,
                               static_cast<double>(lost),
                               "NVML counter samples dropped: the writer drained too rarely"});
    for (const auto& s : samples) {
        auto [it, added] = lanes_.try_emplace({s.device, s.metric}, 0);
        if (added) {
            const auto id = static_cast<std::int64_t>(s.metric);
            it->second = writer.add_lane(
                {trace::LaneKind::Counter, s.device, 0, id, lane_name(s.metric, s.device)});
        }
        writer.add_counter({it->second, s.time_ns, s.value});
    }
}

}  // namespace tokenscope::capture
