// The tracer's writer-thread hook: PeriodicTick's throttling, and NvmlSampler
// drained by a running RecordDrain (as CuptiTracer wires on_writer_tick), so
// counter samples reach the run during capture, not only at its end.
#include "capture/cupti/periodic_tick.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "capture/cupti/record_drain.h"
#include "capture/memory_run_writer.h"
#include "capture/nvml_sampler.h"

namespace tokenscope::capture::cupti {
namespace {

using namespace std::chrono_literals;
using Sampler = NvmlSampler;

TEST(PeriodicTick, CallsAtStartThenAtMostOncePerInterval) {
    int calls = 0;
    PeriodicTick tick([&] { ++calls; }, 50ms);
    const PeriodicTick::Clock::time_point t0{};
    EXPECT_TRUE(tick.poll(t0 + 1ms));
    EXPECT_FALSE(tick.poll(t0 + 20ms));
    EXPECT_FALSE(tick.poll(t0 + 50ms));  // 49 ms after the last call
    EXPECT_TRUE(tick.poll(t0 + 51ms));
    EXPECT_EQ(calls, 2);
}

TEST(PeriodicTick, EmptyFunctionIsNeverCalled) {
    PeriodicTick tick;
    EXPECT_FALSE(tick.poll());
}

// One fake GPU whose PCIe TX counter grows 1000 bytes per 10 ms read.
std::atomic<long long> g_reads{0};
int ok_init() {
    return 0;
}
int ok_shutdown() {
    return 0;
}
int one_device(unsigned int* n) {
    *n = 1;
    return 0;
}
int handle(unsigned int, void** h) {
    static int device;
    *h = &device;
    return 0;
}
int fields(void*, int n, Sampler::FieldValue* v) {
    const long long k = g_reads.fetch_add(1);
    for (int i = 0; i < n; ++i) {
        v[i].timestamp_us = 1'000'000 + 10'000 * k;  // NVML times are never 0
        v[i].value_type = 3;
        const bool tx = v[i].field_id == Sampler::kPcieTxBytes;
        const bool rx = v[i].field_id == Sampler::kPcieRxBytes;
        v[i].result = tx || rx ? 0 : 3;
        v[i].value.ull = (tx ? 1000 : 500) * static_cast<unsigned long long>(k);
    }
    return 0;
}

TEST(WriterTick, NvmlCountersStreamIntoTheRunWhileTheDrainRuns) {
    Sampler::Api api;
    api.init = ok_init;
    api.shutdown = ok_shutdown;
    api.device_count = one_device;
    api.device_handle = handle;
    api.field_values = fields;
    Sampler::Options o;
    o.interval = 200us;
    Sampler sampler(api, o);
    ASSERT_TRUE(sampler.start());

    MemoryRunWriter writer;
    BufferQueue queue;
    BufferPool pool(1 << 16, 2);
    RecordDecoder decoder(writer);
    std::atomic<std::size_t> counters_seen{0};
    // What CuptiTracer does with TracerOptions::on_writer_tick.
    PeriodicTick tick(
        [&] {
            sampler.drain(writer);
            counters_seen = writer.data().counters.size();  // on the writer thread
        },
        5ms);
    RecordDrain drain(
        queue, pool, decoder, writer, [&] { tick.poll(); }, 2ms);
    drain.start();
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (counters_seen.load() < 3 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(1ms);
    const std::size_t during = counters_seen.load();
    drain.stop();
    sampler.stop();
    EXPECT_GE(during, 3u) << "no counter reached the run before the capture ended";
    // 1000 bytes per 10 ms of NVML time: 100,000 bytes/s on the PCIe TX lane.
    const auto& run = writer.data();
    ASSERT_FALSE(run.counters.empty());
    EXPECT_EQ(run.lanes.at(run.counters.front().lane).name,
              Sampler::lane_name(Sampler::Metric::PcieTx, 0));
    EXPECT_DOUBLE_EQ(run.counters.front().value, 100'000.0);
}

}  // namespace
}  // namespace tokenscope::capture::cupti
