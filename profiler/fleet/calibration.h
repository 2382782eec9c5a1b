#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tokenscope::fleet {

inline constexpr double kCalibrationTrigger = 1.2;  // x threshold, 3 evaluations running
inline constexpr std::size_t kCalibrationRun = 3;
inline constexpr double kProposalFactor = 1.2;  // x the peak P95 of the lookback
inline constexpr std::int64_t kProposalLookback_s = 24 * 3600;
inline constexpr double kSettleTolerance = 0.05;  // of the previous proposal

enum class CalibrationState : std::uint8_t { None, Settling, Settled };
std::string_view to_string(CalibrationState state);

// One row's calibration after the last evaluation (docs/fleet.md, SLA and calibration).
struct RowCalibration {
    CalibrationState state = CalibrationState::None;
    std::optional<double> threshold;  // in effect: the SLA, or the last settled proposal
    std::optional<double> proposal;   // the latest proposal of a running or settled calibration
    std::optional<std::size_t> started_at;  // window of the latest calibration's start
    std::optional<std::size_t> settled_at;  // window where it settled
};

// Section 13 over one row: every window is an evaluation comparing its P95 with the
// threshold (initially `sla`); 3 consecutive evaluations above 1.2 x threshold start a
// calibration, which at each evaluation proposes 1.2 x the peak P95 of the windows
// ending in the 24 h up to it; a proposal within 5% of the previous evaluation's
// proposal settles (becomes the threshold), else the row is settling. A blank window
// breaks a run and proposes nothing new (the previous proposal stands).
RowCalibration calibrate_row(const std::vector<std::optional<double>>& p95,
                             const std::vector<std::int64_t>& window_end_s,
                             std::optional<double> sla);

}  // namespace tokenscope::fleet
