// The record decoder's harder cases: NVTX ranges (paired in either order, steps by
// pattern), incomplete and out-of-order records, the clock map, unknown kinds,
// whole CUPTI buffers, and a real .tokenscope file read back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "capture/cupti/record_decoder.h"
#include "capture/memory_run_writer.h"
#include "cupti_records.h"
#include "store/store_reader.h"
#include "store/store_writer.h"

namespace tokenscope::capture::cupti {
namespace {

using namespace records;
using trace::ActivityKind;

constexpr std::uint32_t kStart = CUPTI_ACTIVITY_FLAG_MARKER_START;
constexpr std::uint32_t kEnd = CUPTI_ACTIVITY_FLAG_MARKER_END;
constexpr std::uint32_t kInstant = CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS;

std::vector<trace::Activity> of_kind(const trace::RunData& run, ActivityKind kind) {
    std::vector<trace::Activity> out;
    for (const auto& a : run.activities)
        if (a.kind == kind) out.push_back(a);
    std::sort(out.begin(), out.end(),
              [](const auto& x, const auto& y) { return x.start_ns < y.start_ns; });
    return out;
}

double diagnostic_value(const trace::RunData& run, const std::string& name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return d.value;
    return -1.0;
}

class DecoderEdgeTest : public ::testing::Test {
  protected:
    const trace::RunData& finish() {
        decoder.finish();
        writer.finish();
        return writer.data();
    }
    MemoryRunWriter writer;
    RecordDecoder decoder{writer, DecoderOptions{"^step", true, 4242}};
};

TEST_F(DecoderEdgeTest, NvtxRangesPairInEitherOrderAndStepsGoToTheStepTrack) {
    const std::vector<MarkerRecord> records = {
        marker(kStart, 100, 1, "prefill", 31),  marker(kEnd, 900, 1, nullptr, 31),
        marker(kEnd, 2000, 2, nullptr, 31),  // its start comes later (another buffer)
        marker(kStart, 1000, 2, "layer 0", 31), marker(kStart, 3000, 3, "step 7", 31),
        marker(kEnd, 4000, 3, nullptr, 31),     marker(kStart, 4000, 4, "step", 31),
        marker(kEnd, 4500, 4, nullptr, 31),     marker(kInstant, 2500, 5, "token emitted", 32),
    };
    for (const auto& r : records) decoder.decode(as_record(r));
    const auto& run = finish();
    const auto ranges = of_kind(run, ActivityKind::Range);
    ASSERT_EQ(ranges.size(), 4u);
    EXPECT_EQ(run.name_of(ranges[0]), "prefill");
    EXPECT_EQ(ranges[0].start_ns, 100);
    EXPECT_EQ(ranges[0].end_ns, 900);
    EXPECT_EQ(run.lanes[ranges[0].lane].kind, trace::LaneKind::CpuThread);
    EXPECT_EQ(run.lanes[ranges[0].lane].native_id, 31);
    EXPECT_EQ(run.name_of(ranges[1]), "layer 0");
    EXPECT_EQ(ranges[1].end_ns, 2000);
    EXPECT_EQ(run.lanes[ranges[2].lane].kind, trace::LaneKind::StepTrack);
    EXPECT_EQ(ranges[2].lane, ranges[3].lane);
    const auto markers = of_kind(run, ActivityKind::Marker);
    ASSERT_EQ(markers.size(), 1u);
    EXPECT_EQ(markers[0].start_ns, 2500);
    EXPECT_EQ(markers[0].end_ns, 2500);
    EXPECT_EQ(run.lanes[markers[0].lane].native_id, 32);
    // "step 7" keeps its number; "step" has none and takes its closing order (1).
    ASSERT_EQ(run.steps.size(), 2u);
    EXPECT_EQ(run.steps[0].index, 7);
    EXPECT_EQ(run.steps[0].phase, trace::Phase::Iteration);
    EXPECT_EQ(run.steps[0].start_ns, 3000);
    EXPECT_EQ(run.steps[0].end_ns, 4000);
    EXPECT_EQ(run.steps[1].index, 1);
    EXPECT_EQ(run.steps[1].end_ns, 4500);
    EXPECT_EQ(diagnostic_value(run, "nvtx_unterminated_ranges"), -1.0);
}

TEST_F(DecoderEdgeTest, UnterminatedAndOrphanRangesAreCounted) {
    decoder.decode(as_record(marker(kStart, 100, 1, "never ends", 31)));
    decoder.decode(as_record(marker(kStart, 200, 2, "also open", 31)));
    decoder.decode(as_record(marker(kEnd, 300, 9, nullptr, 31)));
    const auto& run = finish();
    EXPECT_TRUE(of_kind(run, ActivityKind::Range).empty());
    EXPECT_EQ(diagnostic_value(run, "nvtx_unterminated_ranges"), 2.0);
    EXPECT_EQ(diagnostic_value(run, "nvtx_orphan_range_ends"), 1.0);
}

TEST_F(DecoderEdgeTest, IncompleteRecordsAreSkippedAndCounted) {
    decoder.decode(as_record(kernel(1000, 900, 7, 1, "k")));  // end < start
    decoder.decode(as_record(kernel(1000, 0, 7, 2, "k")));    // never ended
    decoder.decode(as_record(kernel(0, 0, 7, 3, "k")));       // not timed
    decoder.decode(as_record(memcpy_record(500, 400, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, 8, 7, 4)));
    decoder.decode(as_record(marker(kInstant, 0, 1, "m", 31)));
    decoder.decode(as_record(kernel(2000, 2100, 7, 5, "k")));  // the only good one
    const auto& run = finish();
    ASSERT_EQ(run.activities.size(), 1u);
    EXPECT_EQ(run.activities[0].correlation, 5u);
    EXPECT_EQ(diagnostic_value(run, "incomplete_records"), 5.0);
    for (const auto& d : run.diagnostics) {
        if (d.name == "incomplete_records") {
            EXPECT_EQ(d.severity, trace::Severity::DataLoss);
        }
    }
    EXPECT_EQ(decoder.stats().incomplete, 5);
    EXPECT_EQ(decoder.stats().records, 6);
}

TEST_F(DecoderEdgeTest, OutOfOrderRecordsAreAllKept) {
    for (std::uint32_t i = 0; i < 5; ++i) {
        const std::uint64_t start = 10'000 - 1000 * i;  // newest first
        decoder.decode(as_record(kernel(start, start + 10, 7, 100 + i, "k")));
    }
    const auto& run = finish();
    ASSERT_EQ(run.activities.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(run.activities[i].start_ns, static_cast<std::int64_t>(6000 + 1000 * i));
        EXPECT_EQ(run.activities[i].correlation, 104 - i);
    }
    EXPECT_EQ(diagnostic_value(run, "incomplete_records"), -1.0);
}

TEST_F(DecoderEdgeTest, TimesGoThroughTheClockFit) {
    // CUPTI time 1.8e18 + t maps to host 5e11 + t.
    constexpr std::int64_t kGpu = 1'800'000'000'000'000'000;
    constexpr std::int64_t kHost = 500'000'000'000;
    decoder.set_clock(GpuClockFit::from_offset(kHost - kGpu));
    decoder.decode(as_record(kernel(kGpu + 1000, kGpu + 3000, 7, 1, "k")));
    decoder.decode(as_record(marker(kInstant, kGpu + 42, 1, "m", 31)));
    const auto& run = finish();
    const auto k = of_kind(run, ActivityKind::Kernel);
    ASSERT_EQ(k.size(), 1u);
    EXPECT_EQ(k[0].start_ns, kHost + 1000);
    EXPECT_EQ(k[0].end_ns, kHost + 3000);
    EXPECT_EQ(of_kind(run, ActivityKind::Marker).at(0).start_ns, kHost + 42);
}

TEST_F(DecoderEdgeTest, OtherKindsAreCountedNotLost) {
    CUpti_Activity device{};
    device.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    CUpti_Activity context{};
    context.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
    decoder.decode(&device);
    decoder.decode(&context);
    const auto& run = finish();
    EXPECT_TRUE(run.activities.empty());
    EXPECT_EQ(diagnostic_value(run, "cupti_other_records"), 2.0);
}

TEST_F(DecoderEdgeTest, WholeBufferIsReadWithCuptisIterator) {
    BufferBuilder buffer;
    buffer.add(api(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                   100, 200, 31, 1));
    buffer.add(kernel(300, 400, 7, 1, "k"));
    buffer.add(memcpy_record(500, 600, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 64, 7, 2));
    buffer.add(marker(kInstant, 700, 1, "m", 31));
    EXPECT_EQ(decoder.decode_buffer(buffer.data(), buffer.size()), 4u);
    EXPECT_EQ(decoder.decode_buffer(buffer.data(), 0), 0u);
    const auto& run = finish();
    EXPECT_EQ(of_kind(run, ActivityKind::Api).size(), 1u);
    EXPECT_EQ(of_kind(run, ActivityKind::Kernel).size(), 1u);
    ASSERT_EQ(of_kind(run, ActivityKind::Memcpy).size(), 1u);
    EXPECT_EQ(of_kind(run, ActivityKind::Memcpy)[0].bytes, 64u);
    EXPECT_EQ(of_kind(run, ActivityKind::Marker).size(), 1u);
}

TEST(DecoderStoreTest, TheStoreHoldsExactlyWhatTheRecordsEncode) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("cupti_decoder_test_" + std::to_string(getpid()) + ".tokenscope");
    std::filesystem::remove(path);
    std::int64_t id = 0;
    {
        store::StoreWriter store(path.string());
        auto writer = store.begin_run(trace::RunInfo{});
        RecordDecoder decoder(*writer, DecoderOptions{"", false, 77});
        decoder.decode(
            as_record(api(CUPTI_ACTIVITY_KIND_RUNTIME,
                          CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 100, 200, 5, 9, 77)));
        decoder.decode(as_record(kernel(250, 1250, 7, 9, "_Z4gemvv")));
        decoder.decode(
            as_record(memcpy_record(1300, 1400, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 4096, 7, 10)));
        decoder.decode(as_record(kernel(50, 10, 7, 11, "bad")));
        decoder.finish();
        writer->finish();
        id = writer->run_id();
    }
    store::StoreReader reader(path.string());
    const auto run = reader.load_run(id);
    ASSERT_EQ(run.lanes.size(), 2u);
    ASSERT_EQ(run.activities.size(), 3u);
    const auto api_calls = of_kind(run, ActivityKind::Api);
    const auto kernels = of_kind(run, ActivityKind::Kernel);
    const auto copies = of_kind(run, ActivityKind::Memcpy);
    ASSERT_EQ(api_calls.size(), 1u);
    ASSERT_EQ(kernels.size(), 1u);
    ASSERT_EQ(copies.size(), 1u);
    EXPECT_EQ(run.name_of(api_calls[0]), "cudaLaunchKernel");
    EXPECT_EQ(run.lanes[api_calls[0].lane].native_id, 5);
    EXPECT_EQ(run.lanes[api_calls[0].lane].process, 77);
    EXPECT_EQ(run.name_of(kernels[0]), "gemv()");
    EXPECT_EQ(kernels[0].start_ns, 250);
    EXPECT_EQ(kernels[0].end_ns, 1250);
    EXPECT_EQ(kernels[0].correlation, 9u);
    EXPECT_EQ(copies[0].copy, trace::CopyKind::D2H);
    EXPECT_EQ(copies[0].bytes, 4096u);
    EXPECT_EQ(diagnostic_value(run, "incomplete_records"), 1.0);
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace tokenscope::capture::cupti
