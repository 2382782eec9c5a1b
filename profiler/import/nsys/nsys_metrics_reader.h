#pragma once

#include "trace/run_data.h"

namespace tokenscope::import {

class NsysDatabase;
class NsysLaneMap;
class NsysProgress;

// Reads GPU_METRICS samples (nsys --gpu-metrics-devices) whose metric name
// mentions PCIe, NVLink or SM activity into one Counter lane per (GPU, metric).
// The GPU is the low byte of typeId; values keep the unit in the metric name
// (nsys reports throughputs as a percentage of peak).
class NsysMetricsReader {
  public:
    NsysMetricsReader(const NsysDatabase& db, NsysLaneMap& lanes, NsysProgress& progress,
                      trace::RunData& run);
    void read();

    static bool wanted(const std::string& metric_name);

  private:
    const NsysDatabase& db_;
    NsysLaneMap& lanes_;
    NsysProgress& progress_;
    trace::RunData& run_;
};

}  // namespace tokenscope::import
