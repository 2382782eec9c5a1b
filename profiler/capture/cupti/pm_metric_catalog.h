#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "pm_sampler.h"

namespace tokenscope::capture::cupti {

// Which PM-sampling metric feeds each PmSampler::Metric slot on one chip, and
// the report of how that was decided. A hard-coded name that the chip lacks
// fails CUPTI's whole configuration (seen on GH100 as CUPTI_ERROR_UNKNOWN), so
// names come from the chip's own base-metric list and each is probed alone.
// Pure string logic: no CUDA, so it is unit-tested on made-up lists.
//
// Matching (case-insensitive, on the base name before any '.'):
//   PcieRead:  "pcie" and ("read" or "rx") and "bytes"
//   PcieWrite: "pcie" and ("write" or "tx") and "bytes"
//   NvlinkRx:  ("nvlrx" or ("nvl" and "rx")) and "bytes"
//   NvlinkTx:  ("nvltx" or ("nvl" and "tx")) and "bytes"
class PmMetricCatalog {
  public:
    using Metric = PmSampler::Metric;
    static constexpr std::size_t kMaxListed = 20;

    // base_metrics: cuptiProfilerHostGetBaseMetrics's counter names for `chip`.
    PmMetricCatalog(std::string chip, std::vector<std::string> base_metrics);
    // When the chip's list could not be read: only the constants are tried.
    static PmMetricCatalog unlisted(std::string chip, std::string why);

    static bool matches(Metric slot, std::string_view base_name);
    // Names (with ".sum") to probe for the slot, best first: the constant of
    // PmSampler::kMetricNames if the chip lists it (or the list is unknown),
    // then pattern matches, shortest first.
    std::vector<std::string> candidates(Metric slot) const;
    // Up to `limit` base metrics containing "pcie" or "nvl", in the chip's order.
    std::vector<std::string> interconnect_metrics(std::size_t limit = kMaxListed) const;

    // Records one probe; an empty `why` means the name configured on its own
    // and becomes the slot's active metric (the first one that passes wins).
    void record_probe(Metric slot, const std::string& name, const std::string& why);
    // The slot's active metric name; empty when the slot is off.
    const std::string& active(Metric slot) const;
    bool any_active() const;

    // "PM sampling metrics on GH100: active pcie__read_bytes.sum (PCIe read), ...;
    // off: NVLink RX (nvlrx__bytes.sum: <why>), NVLink TX (no base metric matched); <listing>"
    std::string summary() const;
    // start()'s reason when no slot is usable; names what was tried and the
    // chip's pcie/nvl base metrics so the next GPU run shows the real names.
    std::string failure() const;

    const std::string& chip() const { return chip_; }

  private:
    struct Slot {
        std::string active;
        std::vector<std::string> tried;  // "name: why"
    };

    std::string off_reason(Metric slot) const;
    std::string listing() const;

    std::string chip_;
    std::vector<std::string> base_;
    bool listed_ = true;
    std::string list_error_;
    std::array<Slot, PmSampler::kMetricCount> slots_;
};

}  // namespace tokenscope::capture::cupti
