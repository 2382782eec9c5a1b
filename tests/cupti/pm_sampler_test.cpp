// PmSampler: the clean failure without a driver, and the pure pieces (bytes per
// sample -> bytes/s, lane names, CUPTI error reasons) on made-up samples.
#include "capture/cupti/pm_sampler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "capture/memory_run_writer.h"

namespace tokenscope::capture::cupti {
namespace {

using Metric = PmSampler::Metric;

PmSampler::Options missing_driver() {
    PmSampler::Options o;
    o.driver_library = "/nonexistent/tokenscope/libcuda.so.1";
    return o;
}

TEST(PmSampler, StartWithoutDriverGivesReasonAndWritesNothing) {
    PmSampler sampler(missing_driver());
    const std::string why = sampler.start(0);
    EXPECT_NE(why.find("no usable NVIDIA driver"), std::string::npos) << why;
    EXPECT_FALSE(sampler.running());
    MemoryRunWriter writer;
    sampler.poll(writer);
    sampler.stop(writer);
    EXPECT_TRUE(writer.data().lanes.empty());
    EXPECT_TRUE(writer.data().counters.empty());
    EXPECT_TRUE(writer.data().diagnostics.empty());
    EXPECT_EQ(sampler.samples_written(), 0);
    EXPECT_EQ(sampler.summary(), "");  // no metric was chosen, so there is nothing to report
}

TEST(PmSampler, DefaultDriverOnMachineWithoutOneFailsCleanly) {
    PmSampler sampler;
    const std::string why = sampler.start(0);
    if (why.empty()) {
        MemoryRunWriter writer;
        sampler.stop(writer);
        GTEST_SKIP() << "a driver with PM sampling is present: " << sampler.summary();
    }
    // On a GPU machine this is what the next run's diagnostics would say.
    std::printf("PM sampling unavailable: %s\nsummary: %s\n", why.c_str(),
                sampler.summary().c_str());
    EXPECT_FALSE(sampler.running());
}

TEST(PmSampler, RatesDivideBytesBySampleDuration) {
    // 10 ms sample: 1 MB read -> 1e8 B/s, 2 MB written -> 2e8 B/s, NVLink RX not
    // evaluated (NaN) -> skipped, NVLink TX 0 bytes -> 0 B/s.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<PmSampler::RawSample> samples = {
        {1'000'000'000, 1'010'000'000, {1e6, 2e6, nan, 0.0}},
        {1'010'000'000, 1'012'500'000, {5e3, -1.0, 2.5e6, 7.5e5}},  // 2.5 ms
    };
    const auto map = [](std::uint64_t g) {
        return static_cast<std::int64_t>(g) - 1'000'000'000 + 7;
    };
    const auto rates = PmSampler::to_rates(samples, map);
    ASSERT_EQ(rates.size(), 6u);
    EXPECT_EQ(rates[0].metric, Metric::PcieRead);
    EXPECT_EQ(rates[0].time_ns, 10'000'007);
    EXPECT_DOUBLE_EQ(rates[0].bytes_per_s, 1e8);
    EXPECT_EQ(rates[1].metric, Metric::PcieWrite);
    EXPECT_DOUBLE_EQ(rates[1].bytes_per_s, 2e8);
    EXPECT_EQ(rates[2].metric, Metric::NvlinkTx);
    EXPECT_DOUBLE_EQ(rates[2].bytes_per_s, 0.0);
    // Second sample: 5e3 B / 2.5 ms = 2e6 B/s; the negative write is dropped.
    EXPECT_EQ(rates[3].metric, Metric::PcieRead);
    EXPECT_EQ(rates[3].time_ns, 12'500'007);
    EXPECT_DOUBLE_EQ(rates[3].bytes_per_s, 2e6);
    EXPECT_EQ(rates[4].metric, Metric::NvlinkRx);
    EXPECT_DOUBLE_EQ(rates[4].bytes_per_s, 1e9);
    EXPECT_EQ(rates[5].metric, Metric::NvlinkTx);
    EXPECT_DOUBLE_EQ(rates[5].bytes_per_s, 3e8);
}

TEST(PmSampler, SamplesWithoutDurationAreSkipped) {
    const std::vector<PmSampler::RawSample> samples = {
        {500, 500, {1.0, 1.0, 1.0, 1.0}},
        {600, 400, {1.0, 1.0, 1.0, 1.0}},
    };
    EXPECT_TRUE(PmSampler::to_rates(samples, {}).empty());
}

TEST(PmSampler, WithoutClockMapTimesAreGpuNanoseconds) {
    const std::vector<PmSampler::RawSample> samples = {{0, 1'000'000'000, {3.0, 0, 0, 0}}};
    const auto rates = PmSampler::to_rates(samples, {});
    ASSERT_EQ(rates.size(), 4u);
    EXPECT_EQ(rates[0].time_ns, 1'000'000'000);
    EXPECT_DOUBLE_EQ(rates[0].bytes_per_s, 3.0);
}

TEST(PmSampler, ValuesOfActiveMetricsGoToTheirSlotsOthersAreNaN) {
    // Config holds PCIe read and NVLink TX only, in that order.
    const std::vector<double> values = {4e6, 9e6};
    const std::vector<Metric> slots = {Metric::PcieRead, Metric::NvlinkTx};
    const auto bytes = PmSampler::to_slots(values, slots);
    EXPECT_DOUBLE_EQ(bytes[0], 4e6);
    EXPECT_TRUE(std::isnan(bytes[1]));
    EXPECT_TRUE(std::isnan(bytes[2]));
    EXPECT_DOUBLE_EQ(bytes[3], 9e6);
}

TEST(PmSampler, RatesSkipSlotsThatAreOff) {
    // 4 ms sample with only PCIe write active: 2e5 B / 4 ms = 5e7 B/s; nothing else.
    const std::vector<double> values = {2e5};
    const std::vector<Metric> slots = {Metric::PcieWrite};
    const std::vector<PmSampler::RawSample> samples = {
        {1'000'000, 5'000'000, PmSampler::to_slots(values, slots)}};
    const auto rates = PmSampler::to_rates(samples, {});
    ASSERT_EQ(rates.size(), 1u);
    EXPECT_EQ(rates[0].metric, Metric::PcieWrite);
    EXPECT_EQ(rates[0].time_ns, 5'000'000);
    EXPECT_DOUBLE_EQ(rates[0].bytes_per_s, 5e7);
}

TEST(PmSampler, NoActiveMetricMeansNoRates) {
    const std::vector<PmSampler::RawSample> samples = {{0, 1'000, PmSampler::to_slots({}, {})}};
    EXPECT_TRUE(PmSampler::to_rates(samples, {}).empty());
}

TEST(PmSampler, LaneNamesNameMetricAndGpu) {
    EXPECT_EQ(PmSampler::lane_name(Metric::PcieRead, 0), "PCIe read bytes/s (GPU 0)");
    EXPECT_EQ(PmSampler::lane_name(Metric::PcieWrite, 1), "PCIe write bytes/s (GPU 1)");
    EXPECT_EQ(PmSampler::lane_name(Metric::NvlinkRx, 2), "NVLink RX bytes/s (GPU 2)");
    EXPECT_EQ(PmSampler::lane_name(Metric::NvlinkTx, 3), "NVLink TX bytes/s (GPU 3)");
}

TEST(PmSampler, MetricNamesAreTheHopperOnesInMetricOrder) {
    EXPECT_STREQ(PmSampler::kMetricNames[0], "pcie__read_bytes.sum");
    EXPECT_STREQ(PmSampler::kMetricNames[1], "pcie__write_bytes.sum");
    EXPECT_STREQ(PmSampler::kMetricNames[2], "nvlrx__bytes.sum");
    EXPECT_STREQ(PmSampler::kMetricNames[3], "nvltx__bytes.sum");
}

TEST(PmSampler, ExplainsPrivilegesUnsupportedAndOtherErrors) {
    EXPECT_EQ(PmSampler::explain(35, "cuptiPmSamplingEnable"),
              "profiling counters need privileges (NVreg_RestrictProfilingToAdminUsers=0 or root)");
    const std::string unsupported = PmSampler::explain(27, "cuptiPmSamplingSetConfig");
    EXPECT_NE(unsupported.find("not supported"), std::string::npos) << unsupported;
    EXPECT_NE(unsupported.find("cuptiPmSamplingSetConfig"), std::string::npos) << unsupported;
    const std::string other = PmSampler::explain(999, "cuptiPmSamplingDecodeData");
    EXPECT_EQ(other.rfind("cuptiPmSamplingDecodeData failed: ", 0), 0u) << other;
    EXPECT_NE(other.find("(999)"), std::string::npos) << other;
}

}  // namespace
}  // namespace tokenscope::capture::cupti
