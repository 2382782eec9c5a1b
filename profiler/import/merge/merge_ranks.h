#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::import {

// How the clocks of several ranks' traces are put on one clock (docs/engine-traces.md, Several GPUs
// and ranks).
enum class ClockAlignment : std::uint8_t {
    Auto,         // the files' absolute start times where every file has one, else collectives
    StartTimes,   // only the start times (RunInfo::origin_utc_ns); an error where one lacks it
    Collectives,  // only the ends of the same NCCL collective kernels across ranks
    None,         // times as they are (the files share a clock already)
};

struct MergeOptions {
    ClockAlignment alignment = ClockAlignment::Auto;
    std::string name;  // the merged run's name; empty: the first rank's name and "+N ranks"
};

// One rank's fitted clock: add offset_ns to the rank's times to put them on the
// reference (lowest) rank's clock.
struct RankClock {
    std::int32_t rank = -1;
    std::int64_t offset_ns = 0;
    ClockAlignment method = ClockAlignment::None;  // StartTimes, Collectives or None
    std::int64_t matched = 0;      // collective ends matched with the reference rank
    double residual_rms_ns = 0.0;  // RMS of the matched ends' misfit after the offset; 0 if none
    double residual_max_ns = 0.0;  // the largest absolute misfit
};

// Thrown for inputs that cannot be merged (none, a rank twice, no way to align);
// the message names the rank and the problem.
class MergeError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Fits each rank's clock offset as merge_ranks does, without merging; in rank order.
// ranks[i] gets rank i where its lanes do not say (Lane::rank = -1).
std::vector<RankClock> fit_rank_clocks(const std::vector<trace::RunData>& ranks,
                                       ClockAlignment alignment = ClockAlignment::Auto,
                                       const trace::StopToken& stop = {});

// One run from several ranks' traces (per-rank Kineto files, one nsys export per
// node): every lane keeps its rank (from the file, else its position in `ranks`) and
// its GPU, times are shifted onto the reference rank's clock, names re-interned and
// correlation ids renumbered so ranks do not collide. Steps are the reference rank's
// (each rank's iterations are the same ones); the other ranks' steps are counted in a
// diagnostic. Diagnostics: merge_clock_offset (one per rank, ns), merge_clock_residual
// (RMS ns of the collective ends after alignment), and every input's own, prefixed
// with its rank. Throws MergeError, or trace::Cancelled when `stop` fires.
trace::RunData merge_ranks(std::vector<trace::RunData> ranks, const MergeOptions& options = {},
                           const trace::StopToken& stop = {});

std::string_view to_string(ClockAlignment alignment);

}  // namespace tokenscope::import
