#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/step_presets.h"
#include "trace/run_data.h"

namespace tokenscope::import {

class NsysDatabase;
class NsysLaneMap;
class NsysProgress;
class NsysStrings;

// Reads NVTX_EVENTS: push/pop (59) and start/end (60) ranges, marks (34).
// Ranges that the first matching iteration preset (or the step pattern) picks
// become steps and move to the StepTrack lane; other ranges and marks stay on
// their thread's lane.
class NsysNvtxReader {
  public:
    NsysNvtxReader(const NsysDatabase& db, NsysStrings& strings, NsysLaneMap& lanes,
                   NsysProgress& progress, trace::RunData& run, const std::string& step_pattern);

    void read();

    static constexpr int kMark = 34;
    static constexpr int kPushPop = 59;
    static constexpr int kStartEnd = 60;

  private:
    void finish_steps();

    const NsysDatabase& db_;
    NsysStrings& strings_;
    NsysLaneMap& lanes_;
    NsysProgress& progress_;
    trace::RunData& run_;
    StepSelector selector_;
    std::vector<StepCandidate> candidates_;  // ranges that may frame a step, in reading order
    std::vector<std::size_t> activity_of_;   // its index in run_.activities
};

}  // namespace tokenscope::import
