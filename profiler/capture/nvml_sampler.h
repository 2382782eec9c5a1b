#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "store/run_writer.h"
#include "trace/diagnostic.h"

namespace tokenscope::capture {

// Samples PCIe and NVLink throughput of every GPU from NVML field counters on a
// thread (docs/capture.md, Counters). NVML is loaded at run time, so the binaries run
// where libnvidia-ml is absent. The RunWriter belongs to one thread, so samples
// wait in a locked buffer until that thread calls drain(); counter lanes are
// created there too.
class NvmlSampler {
  public:
    // The few NVML entry points used, as plain function pointers: dlsym fills
    // them in, tests substitute fakes. NVML handles are opaque pointers; results
    // are nvmlReturn_t (0 = success).
    struct FieldValue {  // nvmlFieldValue_t, 40 bytes
        unsigned int field_id = 0;
        unsigned int scope_id = 0;
        long long timestamp_us = 0;
        long long latency_us = 0;
        int value_type = 0;  // 0 double, 1 uint, 2 ulong, 3 ulonglong, 4 slonglong, 5 sint
        int result = 0;
        union {
            double d;
            unsigned int ui;
            unsigned long ul;
            unsigned long long ull;
            long long sll;
            int si;
        } value{};
    };
    struct Api {
        int (*init)() = nullptr;
        int (*shutdown)() = nullptr;
        int (*device_count)(unsigned int*) = nullptr;
        int (*device_handle)(unsigned int, void**) = nullptr;
        int (*field_values)(void*, int, FieldValue*) = nullptr;
        // nvmlDeviceGetPcieThroughput: KB/s over 20 ms; the fallback for old drivers.
        int (*pcie_throughput)(void*, int, unsigned int*) = nullptr;
        void* library = nullptr;  // dlopen handle; null for fakes
    };
    // Loads libnvidia-ml.so.1; on failure returns an Api with null entry points
    // and says why in *reason.
    static Api load(std::string* reason);

    // Field ids of nvml.h: cumulative byte (PCIe) and KiB (NVLink) counters.
    static constexpr unsigned int kPcieTxBytes = 197;
    static constexpr unsigned int kPcieRxBytes = 198;
    static constexpr unsigned int kNvlinkTxKib = 138;
    static constexpr unsigned int kNvlinkRxKib = 139;

    enum class Metric : std::uint8_t { PcieTx, PcieRx, NvlinkTx, NvlinkRx };
    static std::string lane_name(Metric metric, int device);

    struct Options {
        std::chrono::microseconds interval{10'000};
        std::function<std::int64_t()> clock;  // ns in the run's domain; default CLOCK_MONOTONIC_RAW
        std::size_t max_buffered = 1'000'000;  // samples held between drains; beyond, counted lost
    };

    NvmlSampler();  // loads the real NVML
    explicit NvmlSampler(Api api);
    NvmlSampler(Api api, Options options);
    ~NvmlSampler();
    NvmlSampler(const NvmlSampler&) = delete;
    NvmlSampler& operator=(const NvmlSampler&) = delete;

    // Starts the sampling thread; false (with a diagnostic queued for drain)
    // when NVML or every counter is unavailable. Capture goes on either way.
    bool start();
    void stop();
    // On the writer's thread: lanes, samples and diagnostics gathered so far.
    void drain(store::RunWriter& writer);

    bool running() const { return thread_.joinable(); }
    std::int64_t samples_taken() const;

  private:
    struct Pending {
        int device;
        Metric metric;
        std::int64_t time_ns;
        double value;
    };
    struct Previous {  // last cumulative reading of one counter
        bool valid = false;
        unsigned long long value = 0;
        long long timestamp_us = 0;
        std::int64_t host_ns = 0;
    };

    bool open_devices();
    void loop();
    void sample_device(std::size_t index, std::int64_t now_ns);
    void sample_fields(std::size_t index, std::int64_t now_ns);
    void sample_throughput(std::size_t index, std::int64_t now_ns);
    void push(int device, Metric metric, std::int64_t time_ns, double value);
    void note(trace::Diagnostic diagnostic);

    Api api_;
    Options options_;
    std::string load_reason_;
    bool initialised_ = false;
    std::vector<void*> devices_;
    std::vector<bool> fields_ok_;       // per device: nvmlDeviceGetFieldValues works
    std::vector<bool> pcie_fields_ok_;  // per device: it has the PCIe byte counters
    std::map<std::pair<std::size_t, Metric>, Previous> previous_;

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::vector<Pending> pending_;
    std::vector<trace::Diagnostic> diagnostics_;
    std::int64_t lost_ = 0;
    std::int64_t taken_ = 0;
    std::map<std::pair<int, Metric>, std::uint16_t> lanes_;  // used by drain() only
    std::thread thread_;
};

}  // namespace tokenscope::capture
