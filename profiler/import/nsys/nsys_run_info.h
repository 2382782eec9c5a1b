#pragma once

#include <string>

#include "trace/run_info.h"

namespace tokenscope::import {

class NsysDatabase;

// Fills RunInfo from the export's target and capture tables: the GPU (lowest
// device id in TARGET_INFO_GPU, or TARGET_INFO_CUDA_GPU in older exports),
// session start, host, driver version and the profiled command. Every one of
// these tables is optional; what is absent stays empty. What the GPU table lacks
// (peak FLOP/s, PCIe, NVLink) comes from the catalogue by the GPU's name.
class NsysRunInfo {
  public:
    static trace::RunInfo read(const NsysDatabase& db, const std::string& path);
    static std::string run_name(
        const std::string& path);  // file name without directory and extension
    static int gpu_count(const NsysDatabase& db);

  private:
    static void read_gpu(const NsysDatabase& db, trace::RunInfo& info);
    static void read_capture(const NsysDatabase& db, trace::RunInfo& info);
};

}  // namespace tokenscope::import
