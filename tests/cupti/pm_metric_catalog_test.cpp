// PmMetricCatalog: choosing PM-sampling metric names from made-up base-metric
// lists (constant listed, only alternatives, nothing, no NVLink) and the text
// that reports the choice.
#include "capture/cupti/pm_metric_catalog.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tokenscope::capture::cupti {
namespace {

using Metric = PmSampler::Metric;
using Names = std::vector<std::string>;

const std::string kUnknown = "cuptiProfilerHostConfigAddMetrics failed: CUPTI_ERROR_UNKNOWN (999)";

TEST(PmMetricCatalog, PatternsMatchTheirSlotOnly) {
    EXPECT_TRUE(PmMetricCatalog::matches(Metric::PcieRead, "pcie__read_bytes"));
    EXPECT_TRUE(PmMetricCatalog::matches(Metric::PcieRead, "pcie__rx_bytes"));
    EXPECT_FALSE(PmMetricCatalog::matches(Metric::PcieRead, "pcie__write_bytes"));
    EXPECT_FALSE(PmMetricCatalog::matches(Metric::PcieRead, "pcie__read_requests"));  // no bytes
    EXPECT_FALSE(PmMetricCatalog::matches(Metric::PcieRead, "dram__bytes_read"));     // no pcie
    EXPECT_TRUE(PmMetricCatalog::matches(Metric::PcieWrite, "pcie__tx_bytes"));
    EXPECT_FALSE(PmMetricCatalog::matches(Metric::PcieWrite, "pcie__rx_bytes"));
    EXPECT_TRUE(PmMetricCatalog::matches(Metric::NvlinkRx, "nvlrx__bytes"));
    EXPECT_TRUE(PmMetricCatalog::matches(Metric::NvlinkRx, "nvl__rx_data_bytes"));
    EXPECT_FALSE(PmMetricCatalog::matches(Metric::NvlinkRx, "nvltx__bytes"));
    EXPECT_TRUE(
        PmMetricCatalog::matches(Metric::NvlinkTx, "NVLTX__Bytes.sum"));  // any case, rollup
    EXPECT_FALSE(PmMetricCatalog::matches(Metric::NvlinkTx, "nvltx__packets"));
}

TEST(PmMetricCatalog, ListedConstantComesFirst) {
    const PmMetricCatalog c("GH100", {"sm__cycles_active", "pcie__rx_bytes", "pcie__read_bytes",
                                      "pcie__write_bytes", "nvlrx__bytes", "nvltx__bytes"});
    EXPECT_EQ(c.candidates(Metric::PcieRead),
              (Names{"pcie__read_bytes.sum", "pcie__rx_bytes.sum"}));
    EXPECT_EQ(c.candidates(Metric::PcieWrite), (Names{"pcie__write_bytes.sum"}));
    EXPECT_EQ(c.candidates(Metric::NvlinkRx), (Names{"nvlrx__bytes.sum"}));
    EXPECT_EQ(c.candidates(Metric::NvlinkTx), (Names{"nvltx__bytes.sum"}));
}

TEST(PmMetricCatalog, ConstantIsRecognisedInAnyCase) {
    const PmMetricCatalog c("GH100", {"PCIE__READ_BYTES"});
    EXPECT_EQ(c.candidates(Metric::PcieRead), (Names{"pcie__read_bytes.sum"}));
}

TEST(PmMetricCatalog, OnlyAlternativesAreTakenShortestFirst) {
    const PmMetricCatalog c("GH100", {"pcie__rx_requests_bytes", "pcie__rx_bytes", "pcie__tx_bytes",
                                      "nvl__rx_bytes", "nvl__tx_bytes"});
    EXPECT_EQ(c.candidates(Metric::PcieRead),
              (Names{"pcie__rx_bytes.sum", "pcie__rx_requests_bytes.sum"}));
    EXPECT_EQ(c.candidates(Metric::PcieWrite), (Names{"pcie__tx_bytes.sum"}));
    EXPECT_EQ(c.candidates(Metric::NvlinkRx), (Names{"nvl__rx_bytes.sum"}));
    EXPECT_EQ(c.candidates(Metric::NvlinkTx), (Names{"nvl__tx_bytes.sum"}));
}

TEST(PmMetricCatalog, AtMostFourCandidatesPerSlot) {
    const PmMetricCatalog c("GH100", {"pcie__rx_bytes_aaaa", "pcie__rx_bytes_a", "pcie__rx_bytes",
                                      "pcie__rx_bytes_aaa", "pcie__rx_bytes_aa"});
    EXPECT_EQ(c.candidates(Metric::PcieRead),
              (Names{"pcie__rx_bytes.sum", "pcie__rx_bytes_a.sum", "pcie__rx_bytes_aa.sum",
                     "pcie__rx_bytes_aaa.sum"}));
}

TEST(PmMetricCatalog, NothingMatchingMeansNoCandidatesAndAFailureListingTheChip) {
    PmMetricCatalog c("GH100", {"sm__cycles_active", "pcie__read_requests", "nvl__link_state"});
    for (Metric m : {Metric::PcieRead, Metric::PcieWrite, Metric::NvlinkRx, Metric::NvlinkTx})
        EXPECT_TRUE(c.candidates(m).empty());
    EXPECT_FALSE(c.any_active());
    EXPECT_EQ(c.failure(),
              "no PCIe/NVLink PM-sampling metric on GH100 (tried nothing: no base metric "
              "matched); the chip's base metrics with pcie/nvl: pcie__read_requests, "
              "nvl__link_state");
}

TEST(PmMetricCatalog, NvlinkAbsentLeavesThoseSlotsOffInTheSummary) {
    PmMetricCatalog c("GH100", {"gpu__time_duration", "pcie__read_bytes", "pcie__write_bytes"});
    EXPECT_TRUE(c.candidates(Metric::NvlinkRx).empty());
    EXPECT_TRUE(c.candidates(Metric::NvlinkTx).empty());
    c.record_probe(Metric::PcieRead, "pcie__read_bytes.sum", "");
    c.record_probe(Metric::PcieWrite, "pcie__write_bytes.sum", kUnknown);
    EXPECT_TRUE(c.any_active());
    EXPECT_EQ(c.active(Metric::PcieRead), "pcie__read_bytes.sum");
    EXPECT_EQ(c.active(Metric::PcieWrite), "");
    EXPECT_EQ(c.active(Metric::NvlinkRx), "");
    EXPECT_EQ(c.summary(),
              "PM sampling metrics on GH100: active pcie__read_bytes.sum (PCIe read); off: "
              "PCIe write (pcie__write_bytes.sum: " +
                  kUnknown +
                  "), NVLink RX (no base metric matched), NVLink TX (no base metric matched); "
                  "the chip's base metrics with pcie/nvl: pcie__read_bytes, pcie__write_bytes");
}

TEST(PmMetricCatalog, AllActiveSummaryNamesEachMetric) {
    PmMetricCatalog c("GH100",
                      {"pcie__read_bytes", "pcie__write_bytes", "nvlrx__bytes", "nvltx__bytes"});
    c.record_probe(Metric::PcieRead, "pcie__read_bytes.sum", "");
    c.record_probe(Metric::PcieWrite, "pcie__write_bytes.sum", "");
    c.record_probe(Metric::NvlinkRx, "nvlrx__bytes.sum", "");
    c.record_probe(Metric::NvlinkTx, "nvltx__bytes.sum", "");
    EXPECT_EQ(c.summary(),
              "PM sampling metrics on GH100: active pcie__read_bytes.sum (PCIe read), "
              "pcie__write_bytes.sum (PCIe write), nvlrx__bytes.sum (NVLink RX), "
              "nvltx__bytes.sum (NVLink TX)");
}

TEST(PmMetricCatalog, FirstPassingProbeWinsAndLaterOnesDoNotReplaceIt) {
    PmMetricCatalog c("GH100", {"pcie__read_bytes", "pcie__rx_bytes"});
    c.record_probe(Metric::PcieRead, "pcie__read_bytes.sum", kUnknown);
    c.record_probe(Metric::PcieRead, "pcie__rx_bytes.sum", "");
    c.record_probe(Metric::PcieRead, "pcie__other_bytes.sum", "");
    EXPECT_EQ(c.active(Metric::PcieRead), "pcie__rx_bytes.sum");
}

TEST(PmMetricCatalog, FailureNamesTriedMetricsFirstErrorAndAtMostTwentyChipMetrics) {
    Names base = {"sm__cycles_active"};
    for (int i = 0; i < 23; ++i) base.push_back("nvl__lane" + std::to_string(i) + "_state");
    base.insert(base.begin() + 1, "pcie__read_bytes");
    PmMetricCatalog c("GH100", base);
    c.record_probe(Metric::PcieRead, "pcie__read_bytes.sum", kUnknown);
    c.record_probe(Metric::PcieWrite, "pcie__write_bytes.sum", "other error");
    EXPECT_FALSE(c.any_active());
    std::string listed = "pcie__read_bytes";
    for (int i = 0; i < 19; ++i) listed += ", nvl__lane" + std::to_string(i) + "_state";
    EXPECT_EQ(c.failure(),
              "no PCIe/NVLink PM-sampling metric on GH100 (tried pcie__read_bytes.sum, "
              "pcie__write_bytes.sum; first error: " +
                  kUnknown + "); the chip's base metrics with pcie/nvl: " + listed + " (+4 more)");
    EXPECT_EQ(c.interconnect_metrics().size(), 20u);
    EXPECT_EQ(c.interconnect_metrics(2), (Names{"pcie__read_bytes", "nvl__lane0_state"}));
}

TEST(PmMetricCatalog, UnlistedChipTriesOnlyTheConstantsAndSaysWhy) {
    PmMetricCatalog c =
        PmMetricCatalog::unlisted("GH100", "cuptiProfilerHostGetBaseMetrics failed");
    EXPECT_EQ(c.candidates(Metric::PcieRead), (Names{"pcie__read_bytes.sum"}));
    EXPECT_EQ(c.candidates(Metric::NvlinkTx), (Names{"nvltx__bytes.sum"}));
    c.record_probe(Metric::NvlinkTx, "nvltx__bytes.sum", "bad");
    const std::string failure = c.failure();
    EXPECT_NE(failure.find("tried nvltx__bytes.sum; first error: bad"), std::string::npos)
        << failure;
    EXPECT_NE(failure.find("the chip's base metrics could not be listed: "
                           "cuptiProfilerHostGetBaseMetrics failed"),
              std::string::npos)
        << failure;
}

TEST(PmMetricCatalog, ChipWithoutInterconnectMetricsSaysHowManyItListed) {
    PmMetricCatalog c("GH100", {"sm__cycles_active", "dram__bytes_read"});
    EXPECT_EQ(c.failure(),
              "no PCIe/NVLink PM-sampling metric on GH100 (tried nothing: no base metric "
              "matched); the chip lists 2 base metrics, none with pcie/nvl");
}

}  // namespace
}  // namespace tokenscope::capture::cupti
