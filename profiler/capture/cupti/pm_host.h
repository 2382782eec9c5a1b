#pragma once

#include <cupti_profiler_host.h>

#include <cstdint>
#include <string>
#include <vector>

#include "pm_metric_catalog.h"

namespace tokenscope::capture::cupti {

// The profiler host side of PM sampling: the chip's name and counter availability,
// which metric names it accepts, and the config image of the chosen ones. Owns one
// CUPTI host object (evaluating samples needs it after configuration). Failures are
// reason strings, like PmSampler's.
class PmHost {
  public:
    // What every host object of the device is made from.
    struct Chip {
        std::string name;
        std::vector<std::uint8_t> availability;
    };

    static std::string read_chip(int device, Chip* out);
    // The chip's base metrics matched to PmSampler's slots, each candidate checked
    // on a host object of its own (one bad name fails ConfigAddMetrics for all).
    static PmMetricCatalog choose_metrics(const Chip& chip);

    PmHost() = default;
    PmHost(const PmHost&) = delete;
    PmHost& operator=(const PmHost&) = delete;
    ~PmHost() { reset(); }

    std::string open(const Chip& chip);
    std::string build_config(const std::vector<std::string>& names,
                             std::vector<std::uint8_t>& config);
    CUpti_Profiler_Host_Object* get() const { return host_; }
    void reset() noexcept;

  private:
    CUpti_Profiler_Host_Object* host_ = nullptr;
};

}  // namespace tokenscope::capture::cupti
