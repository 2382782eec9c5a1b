#pragma once

#include <cstdint>
#include <regex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::import {

class NsysDatabase;
class NsysLaneMap;
class NsysProgress;
class NsysStrings;

// Reads NVTX_EVENTS: push/pop (59) and start/end (60) ranges, marks (34).
// Ranges whose text matches the step pattern become Iteration steps on the
// StepTrack lane; other ranges and marks go on their thread's lane.
class NsysNvtxReader {
  public:
    NsysNvtxReader(const NsysDatabase& db, NsysStrings& strings, NsysLaneMap& lanes,
                   NsysProgress& progress, trace::RunData& run, const std::string& step_pattern);

    void read();

    static constexpr int kMark = 34;
    static constexpr int kPushPop = 59;
    static constexpr int kStartEnd = 60;

  private:
    bool is_step(std::uint32_t name);
    void finish_steps();

    const NsysDatabase& db_;
    NsysStrings& strings_;
    NsysLaneMap& lanes_;
    NsysProgress& progress_;
    trace::RunData& run_;
    std::string pattern_text_;
    std::regex pattern_;
    std::unordered_map<std::uint32_t, bool> step_names_;        // regex result per interned name
    std::vector<std::pair<trace::Step, std::uint32_t>> steps_;  // with the range's name
};

}  // namespace tokenscope::import
