// The record decoder fed CUPTI records built in memory: each kind lands on the right
// lane with the times, names, bytes and correlation ids the records carry.
#include "capture/cupti/record_decoder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "capture/memory_run_writer.h"
#include "cupti_records.h"

namespace tokenscope::capture::cupti {
namespace {

using namespace records;
using trace::ActivityKind;
using trace::CopyKind;
using trace::LaneKind;

std::vector<trace::Activity> of_kind(const trace::RunData& run, ActivityKind kind) {
    std::vector<trace::Activity> out;
    for (const auto& a : run.activities)
        if (a.kind == kind) out.push_back(a);
    std::sort(out.begin(), out.end(),
              [](const auto& x, const auto& y) { return x.start_ns < y.start_ns; });
    return out;
}

const trace::Diagnostic* diagnostic(const trace::RunData& run, const std::string& name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return &d;
    return nullptr;
}

class RecordDecoderTest : public ::testing::Test {
  protected:
    const trace::RunData& finish() {
        decoder.finish();
        writer.finish();
        return writer.data();
    }
    MemoryRunWriter writer;
    RecordDecoder decoder{writer, DecoderOptions{"^step", true, 4242}};
};

TEST_F(RecordDecoderTest, KernelsGoToOneLanePerStreamWithTheirCorrelation) {
    const auto k1 = kernel(1000, 1500, 7, 11, "_Z11rmsnorm_fwdPKfPfi");
    const auto k2 = kernel(1600, 2600, 7, 12, "gemv_kernel");
    const auto k3 = kernel(1200, 1300, 13, 13, "gemv_kernel", 1, 2);
    for (const auto* r : {&k1, &k2, &k3}) decoder.decode(as_record(*r));
    const auto& run = finish();
    ASSERT_EQ(run.lanes.size(), 2u);
    EXPECT_EQ(run.lanes[0].kind, LaneKind::GpuStream);
    EXPECT_EQ(run.lanes[0].device, 0);
    EXPECT_EQ(run.lanes[0].native_id, 7);
    EXPECT_EQ(run.lanes[0].process, 4242);
    EXPECT_EQ(run.lanes[1].device, 1);
    EXPECT_EQ(run.lanes[1].native_id, 13);
    const auto kernels = of_kind(run, ActivityKind::Kernel);
    ASSERT_EQ(kernels.size(), 3u);
    EXPECT_EQ(kernels[0].start_ns, 1000);
    EXPECT_EQ(kernels[0].end_ns, 1500);
    EXPECT_EQ(kernels[0].correlation, 11u);
    EXPECT_EQ(kernels[0].lane, 0);
    EXPECT_EQ(run.device_of(kernels[0]), 0);
    EXPECT_EQ(run.name_of(kernels[0]), "rmsnorm_fwd(float const*, float*, int)");
    EXPECT_EQ(kernels[1].lane, 1);
    EXPECT_EQ(run.device_of(kernels[1]), 1);
    EXPECT_EQ(kernels[1].correlation, 13u);
    EXPECT_EQ(run.name_of(kernels[2]), "gemv_kernel");
    EXPECT_EQ(kernels[2].duration_ns(), 1000);
    EXPECT_EQ(decoder.stats().activities, 3);
    EXPECT_EQ(decoder.stats().records, 3);
}

TEST_F(RecordDecoderTest, MemcpyDirectionsAndBytes) {
    const std::vector<std::pair<std::uint8_t, CopyKind>> kinds = {
        {CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CopyKind::H2D},
        {CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, CopyKind::D2H},
        {CUPTI_ACTIVITY_MEMCPY_KIND_DTOD, CopyKind::D2D},
        {CUPTI_ACTIVITY_MEMCPY_KIND_HTOH, CopyKind::H2H},
        {CUPTI_ACTIVITY_MEMCPY_KIND_ATOD, CopyKind::D2D},
        {CUPTI_ACTIVITY_MEMCPY_KIND_PTOP, CopyKind::P2P},
        {CUPTI_ACTIVITY_MEMCPY_KIND_HTOA, CopyKind::H2D},
        {CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN, CopyKind::None}};
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const auto r = memcpy_record(100 * (i + 1), 100 * (i + 1) + 50, kinds[i].first, 1000 + i, 8,
                                     static_cast<std::uint32_t>(20 + i));
        decoder.decode(as_record(r));
    }
    const auto& run = finish();
    const auto copies = of_kind(run, ActivityKind::Memcpy);
    ASSERT_EQ(copies.size(), kinds.size());
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        EXPECT_EQ(copies[i].copy, kinds[i].second) << i;
        EXPECT_EQ(copies[i].bytes, 1000 + i);
        EXPECT_EQ(copies[i].correlation, 20 + i);
        EXPECT_EQ(copies[i].start_ns, static_cast<std::int64_t>(100 * (i + 1)));
        EXPECT_EQ(copies[i].duration_ns(), 50);
    }
    EXPECT_EQ(run.name_of(copies[0]), "Memcpy HtoD");
    EXPECT_EQ(run.name_of(copies[1]), "Memcpy DtoH");
    EXPECT_EQ(run.name_of(copies[2]), "Memcpy DtoD");
    EXPECT_EQ(run.name_of(copies[3]), "Memcpy HtoH");
    EXPECT_EQ(run.name_of(copies[5]), "Memcpy PtoP");
    ASSERT_EQ(run.lanes.size(), 1u);  // all on stream 8
}

TEST_F(RecordDecoderTest, PeerCopyAndMemset) {
    PeerCopyRecord p{};
    p.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
    p.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
    p.bytes = 1 << 20;
    p.start = 5000;
    p.end = 9000;
    p.deviceId = 1;
    p.contextId = 3;
    p.streamId = 21;
    p.srcDeviceId = 0;
    p.dstDeviceId = 1;
    p.correlationId = 77;
    MemsetRecord m{};
    m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    m.bytes = 4096;
    m.start = 4000;
    m.end = 4100;
    m.deviceId = 0;
    m.contextId = 1;
    m.streamId = 7;
    m.correlationId = 78;
    decoder.decode(as_record(p));
    decoder.decode(as_record(m));
    const auto& run = finish();
    const auto copies = of_kind(run, ActivityKind::Memcpy);
    ASSERT_EQ(copies.size(), 1u);
    EXPECT_EQ(copies[0].copy, CopyKind::P2P);
    EXPECT_EQ(copies[0].bytes, 1u << 20);
    EXPECT_EQ(copies[0].start_ns, 5000);
    EXPECT_EQ(copies[0].end_ns, 9000);
    EXPECT_EQ(run.device_of(copies[0]), 1);
    EXPECT_EQ(copies[0].correlation, 77u);
    EXPECT_EQ(run.lanes[copies[0].lane].native_id, 21);
    EXPECT_EQ(run.lanes[copies[0].lane].device, 1);
    const auto sets = of_kind(run, ActivityKind::Memset);
    ASSERT_EQ(sets.size(), 1u);
    EXPECT_EQ(sets[0].bytes, 4096u);
    EXPECT_EQ(sets[0].duration_ns(), 100);
    EXPECT_EQ(sets[0].correlation, 78u);
    EXPECT_EQ(run.name_of(sets[0]), "Memset");
    EXPECT_EQ(run.lanes[sets[0].lane].native_id, 7);
}

TEST_F(RecordDecoderTest, RuntimeAndDriverCallsOnTheirThreadLinkedToTheirKernel) {
    const auto launch = api(CUPTI_ACTIVITY_KIND_RUNTIME,
                            CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 100, 400, 31, 5);
    const auto cu =
        api(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 150, 350, 31, 6);
    const auto other = api(CUPTI_ACTIVITY_KIND_RUNTIME,
                           CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, 120, 220, 32, 7);
    const auto k = kernel(600, 900, 7, 5, "gemv_kernel");
    for (const auto* r : {as_record(launch), as_record(cu), as_record(other), as_record(k)})
        decoder.decode(r);
    const auto& run = finish();
    const auto calls = of_kind(run, ActivityKind::Api);
    ASSERT_EQ(calls.size(), 3u);
    EXPECT_EQ(run.name_of(calls[0]), "cudaLaunchKernel");
    EXPECT_EQ(run.name_of(calls[1]), "cudaMemcpyAsync");
    EXPECT_EQ(run.name_of(calls[2]), "cuLaunchKernel");
    EXPECT_EQ(calls[0].lane, calls[2].lane);  // same thread 31
    EXPECT_NE(calls[0].lane, calls[1].lane);
    const auto& lane = run.lanes[calls[0].lane];
    EXPECT_EQ(lane.kind, LaneKind::CpuThread);
    EXPECT_EQ(lane.native_id, 31);
    EXPECT_EQ(lane.process, 4242);
    EXPECT_EQ(calls[0].start_ns, 100);
    EXPECT_EQ(calls[0].end_ns, 400);
    EXPECT_EQ(run.device_of(calls[0]), -1);
    const auto kernels = of_kind(run, ActivityKind::Kernel);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].correlation, calls[0].correlation);
}

TEST_F(RecordDecoderTest, SyncTakesTheLaneOfItsApiCallInEitherOrder) {
    auto sync_record = [](std::uint64_t start, std::uint64_t end, std::uint32_t corr,
                          CUpti_ActivitySynchronizationType type) {
        SyncRecord s{};
        s.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
        s.type = type;
        s.start = start;
        s.end = end;
        s.correlationId = corr;
        s.contextId = 1;
        s.streamId = 7;
        return s;
    };
    const auto call1 =
        api(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 1000,
            3000, 31, 40);
    const auto sync1 =
        sync_record(1010, 2990, 40, CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE);
    const auto sync2 =
        sync_record(5010, 5990, 41, CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE);
    const auto call2 = api(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize,
                           5000, 6000, 32, 41);
    const auto sync3 =
        sync_record(8000, 8100, 99, CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE);
    for (const auto* r :
         {as_record(call1), as_record(sync1), as_record(sync2), as_record(call2), as_record(sync3)})
        decoder.decode(r);
    const auto& run = finish();
    const auto syncs = of_kind(run, ActivityKind::Sync);
    const auto calls = of_kind(run, ActivityKind::Api);
    ASSERT_EQ(syncs.size(), 3u);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(syncs[0].lane, calls[0].lane);
    EXPECT_EQ(syncs[0].start_ns, 1010);
    EXPECT_EQ(syncs[0].correlation, 40u);
    EXPECT_EQ(run.name_of(syncs[0]), "Stream synchronize");
    EXPECT_EQ(syncs[1].lane, calls[1].lane);  // its API call came after it
    EXPECT_EQ(run.name_of(syncs[1]), "Event synchronize");
    EXPECT_EQ(run.lanes[syncs[2].lane].name, "synchronization (thread unknown)");
    EXPECT_EQ(run.name_of(syncs[2]), "Context synchronize");
    const auto* d = diagnostic(run, "sync_thread_unknown");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->value, 1.0);
    EXPECT_EQ(d->severity, trace::Severity::Info);
}

TEST_F(RecordDecoderTest, OverheadOnItsThreadOrOnTheOverheadLane) {
    OverheadRecord on_thread{};
    on_thread.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
    on_thread.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
    on_thread.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    on_thread.objectId.pt.processId = 4242;
    on_thread.objectId.pt.threadId = 31;
    on_thread.start = 700;
    on_thread.end = 760;
    OverheadRecord on_device = on_thread;
    on_device.overheadKind = CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER;
    on_device.objectKind = CUPTI_ACTIVITY_OBJECT_DEVICE;
    on_device.objectId.dcs.deviceId = 0;
    on_device.start = 800;
    on_device.end = 1800;
    decoder.decode(as_record(on_thread));
    decoder.decode(as_record(on_device));
    const auto& run = finish();
    const auto ranges = of_kind(run, ActivityKind::Range);
    ASSERT_EQ(ranges.size(), 2u);
    EXPECT_EQ(run.name_of(ranges[0]), "CUPTI overhead: CUPTI buffer flush");
    EXPECT_EQ(run.lanes[ranges[0].lane].native_id, 31);
    EXPECT_EQ(ranges[0].duration_ns(), 60);
    EXPECT_EQ(run.name_of(ranges[1]), "CUPTI overhead: driver JIT compilation");
    EXPECT_EQ(run.lanes[ranges[1].lane].name, "CUPTI overhead");
    EXPECT_EQ(ranges[1].duration_ns(), 1000);
}

}  // namespace
}  // namespace tokenscope::capture::cupti
