// NvmlSampler without NVML (this machine) and against a fake NVML whose counters
// advance by known amounts per read, so every rate is worked out by hand.
#include "capture/nvml_sampler.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "capture/memory_run_writer.h"

namespace tokenscope::capture {
namespace {

using Sampler = NvmlSampler;
using trace::LaneKind;

constexpr int kOk = 0;
constexpr int kNotSupported = 3;

// Fake NVML: one device whose cumulative counters grow by fixed steps per read,
// each read 10 ms (10,000 µs of NVML timestamp) after the previous one.
std::atomic<int> g_reads{0};
std::atomic<bool> g_fields_fail{false};
std::atomic<int> g_init_result{0};

int fake_init() {
    return g_init_result.load();
}
int fake_shutdown() {
    return kOk;
}
int fake_count(unsigned int* n) {
    *n = 1;
    return kOk;
}
int fake_handle(unsigned int, void** h) {
    static int device;
    *h = &device;
    return kOk;
}
int fake_fields(void*, int n, Sampler::FieldValue* v) {
    if (g_fields_fail.load()) return kNotSupported;
    const long long k = g_reads.fetch_add(1);
    for (int i = 0; i < n; ++i) {
        v[i].timestamp_us = 1'000'000 + 10'000 * k;
        v[i].value_type = 3;  // unsigned long long
        v[i].result = kOk;
        switch (v[i].field_id) {
            case Sampler::kPcieTxBytes:
                v[i].value.ull = 5'000'000 + 1000 * k;
                break;
            case Sampler::kPcieRxBytes:
                v[i].value.ull = 500 * k;
                break;
            case Sampler::kNvlinkTxKib:
                v[i].value.ull = 2 * k;
                break;
            default:
                v[i].result = kNotSupported;  // no NVLink RX on this "GPU"
        }
    }
    return kOk;
}
int fake_throughput(void*, int counter, unsigned int* kb_per_s) {
    g_reads.fetch_add(1);
    *kb_per_s = counter == 0 ? 7 : 3;
    return kOk;
}

Sampler::Api fake_api() {
    Sampler::Api api;
    api.init = fake_init;
    api.shutdown = fake_shutdown;
    api.device_count = fake_count;
    api.device_handle = fake_handle;
    api.field_values = fake_fields;
    api.pcie_throughput = fake_throughput;
    return api;
}

Sampler::Options fast() {
    Sampler::Options o;
    o.interval = std::chrono::microseconds(200);
    return o;
}

void reset_fake() {
    g_reads = 0;
    g_fields_fail = false;
    g_init_result = 0;
}

void wait_for_reads(int n) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (g_reads.load() < n && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_GE(g_reads.load(), n) << "the sampler thread did not sample";
}

const trace::Lane* lane_named(const trace::RunData& run, const std::string& name) {
    for (const auto& l : run.lanes)
        if (l.name == name) return &l;
    return nullptr;
}

std::vector<double> values_on(const trace::RunData& run, const std::string& lane) {
    std::vector<double> out;
    for (std::size_t i = 0; i < run.lanes.size(); ++i)
        if (run.lanes[i].name == lane)
            for (const auto& c : run.counters)
                if (c.lane == i) out.push_back(c.value);
    return out;
}

TEST(NvmlSampler, WithoutNvmlAddsInfoDiagnosticAndWritesNoCounters) {
    Sampler sampler(Sampler::Api{});
    EXPECT_FALSE(sampler.start());
    EXPECT_FALSE(sampler.running());
    MemoryRunWriter writer;
    sampler.drain(writer);
    const auto& run = writer.data();
    ASSERT_EQ(run.diagnostics.size(), 1u);
    EXPECT_EQ(run.diagnostics[0].name, "nvml_unavailable");
    EXPECT_EQ(run.diagnostics[0].severity, trace::Severity::Info);
    EXPECT_EQ(run.diagnostics[0].text,
              "PCIe/NVLink counters unavailable: libnvidia-ml.so.1 not found");
    EXPECT_TRUE(run.lanes.empty());
    EXPECT_TRUE(run.counters.empty());
    // Capture goes on: the writer still takes the rest of the run.
    writer.add_lane({LaneKind::CpuThread, -1, 1, 1, "main"});
    writer.finish();
    EXPECT_TRUE(writer.finished());
}

TEST(NvmlSampler, RealLoaderOnMachineWithoutNvml) {
    if (void* h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
        dlclose(h);
        GTEST_SKIP() << "this machine has NVML";
    }
    Sampler sampler;
    EXPECT_FALSE(sampler.start());
    MemoryRunWriter writer;
    sampler.drain(writer);
    ASSERT_EQ(writer.data().diagnostics.size(), 1u);
    EXPECT_EQ(writer.data().diagnostics[0].text,
              "PCIe/NVLink counters unavailable: libnvidia-ml.so.1 not found");
}

TEST(NvmlSampler, FailedInitSaysWhy) {
    reset_fake();
    g_init_result = 9;  // NVML_ERROR_DRIVER_NOT_LOADED
    Sampler sampler(fake_api(), fast());
    EXPECT_FALSE(sampler.start());
    MemoryRunWriter writer;
    sampler.drain(writer);
    ASSERT_EQ(writer.data().diagnostics.size(), 1u);
    EXPECT_EQ(writer.data().diagnostics[0].text,
              "PCIe/NVLink counters unavailable: nvmlInit failed (NVML error 9)");
}

TEST(NvmlSampler, FieldCountersBecomeRatesOnCounterLanes) {
    reset_fake();
    Sampler sampler(fake_api(), fast());
    ASSERT_TRUE(sampler.start());
    wait_for_reads(6);
    sampler.stop();
    MemoryRunWriter writer;
    sampler.drain(writer);
    const auto& run = writer.data();
    EXPECT_TRUE(run.diagnostics.empty());
    ASSERT_EQ(run.lanes.size(), 3u);  // no NVLink RX lane: that field is unsupported
    const trace::Lane* tx = lane_named(run, "PCIe TX bytes/s (GPU 0)");
    ASSERT_NE(tx, nullptr);
    EXPECT_EQ(tx->kind, LaneKind::Counter);
    EXPECT_EQ(tx->device, 0);
    ASSERT_NE(lane_named(run, "PCIe RX bytes/s (GPU 0)"), nullptr);
    ASSERT_NE(lane_named(run, "NVLink TX bytes/s (GPU 0)"), nullptr);
    // Per read: +1000 B, +500 B and +2 KiB over 10 ms -> 100 kB/s, 50 kB/s, 204.8 kB/s.
    const int reads = g_reads.load();
    for (const auto& [lane, rate] : {std::pair{"PCIe TX bytes/s (GPU 0)", 100'000.0},
                                     {"PCIe RX bytes/s (GPU 0)", 50'000.0},
                                     {"NVLink TX bytes/s (GPU 0)", 204'800.0}}) {
        auto v = values_on(run, lane);
        EXPECT_EQ(static_cast<int>(v.size()), reads - 1) << lane;  // the first read has no rate
        for (double x : v) EXPECT_DOUBLE_EQ(x, rate) << lane;
    }
    for (std::size_t i = 1; i < run.counters.size(); ++i) {
        if (run.counters[i].lane == run.counters[i - 1].lane) {
            EXPECT_GE(run.counters[i].time_ns, run.counters[i - 1].time_ns);
        }
    }
}

TEST(NvmlSampler, OldDriverFallsBackToThroughputCall) {
    reset_fake();
    g_fields_fail = true;
    Sampler sampler(fake_api(), fast());
    ASSERT_TRUE(sampler.start());
    wait_for_reads(4);
    sampler.stop();
    MemoryRunWriter writer;
    sampler.drain(writer);
    auto tx = values_on(writer.data(), "PCIe TX bytes/s (GPU 0)");
    auto rx = values_on(writer.data(), "PCIe RX bytes/s (GPU 0)");
    ASSERT_FALSE(tx.empty());
    ASSERT_FALSE(rx.empty());
    for (double x : tx) EXPECT_DOUBLE_EQ(x, 7000.0);  // 7 KB/s
    for (double x : rx) EXPECT_DOUBLE_EQ(x, 3000.0);
    EXPECT_EQ(lane_named(writer.data(), "NVLink TX bytes/s (GPU 0)"), nullptr);
}

TEST(NvmlSampler, OverflowingBufferIsCountedAsDataLoss) {
    reset_fake();
    auto o = fast();
    o.max_buffered = 2;
    Sampler sampler(fake_api(), o);
    ASSERT_TRUE(sampler.start());
    wait_for_reads(5);
    sampler.stop();
    MemoryRunWriter writer;
    sampler.drain(writer);
    const auto& run = writer.data();
    EXPECT_EQ(run.counters.size(), 2u);
    ASSERT_EQ(run.diagnostics.size(), 1u);
    EXPECT_EQ(run.diagnostics[0].name, "nvml_samples_lost");
    EXPECT_EQ(run.diagnostics[0].severity, trace::Severity::DataLoss);
    EXPECT_EQ(run.diagnostics[0].value, static_cast<double>(sampler.samples_taken() - 2));
}

TEST(NvmlSampler, DrainingTwiceKeepsOneLanePerCounter) {
    reset_fake();
    Sampler sampler(fake_api(), fast());
    ASSERT_TRUE(sampler.start());
    MemoryRunWriter writer;
    wait_for_reads(3);
    sampler.drain(writer);
    wait_for_reads(6);
    sampler.stop();
    sampler.drain(writer);
    EXPECT_EQ(writer.data().lanes.size(), 3u);
    EXPECT_EQ(static_cast<int>(writer.data().counters.size()), 3 * (g_reads.load() - 1));
}

}  // namespace
}  // namespace tokenscope::capture
