#include "calibration.h"

#include <algorithm>
#include <cmath>

namespace tokenscope::fleet {
namespace {

std::optional<double> lookback_peak(const std::vector<std::optional<double>>& p95,
                                    const std::vector<std::int64_t>& ends, std::size_t at) {
    std::optional<double> peak;
    for (std::size_t c = at + 1; c-- > 0;) {
        if (ends[at] - ends[c] >= kProposalLookback_s) break;
        if (p95[c]) peak = std::max(peak.value_or(*p95[c]), *p95[c]);
    }
    return peak;
}

}  // namespace

std::string_view to_string(CalibrationState state) {
    switch (state) {
        case CalibrationState::None:
            return "none";
        case CalibrationState::Settling:
            return "settling";
        case CalibrationState::Settled:
            return "settled";
    }
    return "none";
}

RowCalibration calibrate_row(const std::vector<std::optional<double>>& p95,
                             const std::vector<std::int64_t>& window_end_s,
                             std::optional<double> sla) {
    RowCalibration out;
    out.threshold = sla;
    if (!sla) return out;
    std::size_t run = 0;
    bool calibrating = false;
    std::optional<double> previous;
    for (std::size_t c = 0; c < p95.size() && c < window_end_s.size(); ++c) {
        if (!calibrating) {
            run = (p95[c] && *p95[c] > kCalibrationTrigger * *out.threshold) ? run + 1 : 0;
            if (run < kCalibrationRun) continue;
            calibrating = true;
            previous.reset();
            out.state = CalibrationState::Settling;
            out.started_at = c;
            out.settled_at.reset();
        }
        if (!p95[c]) continue;
        const auto peak = lookback_peak(p95, window_end_s, c);
        const double proposal = kProposalFactor * *peak;
        out.proposal = proposal;
        if (previous && std::fabs(proposal - *previous) <= kSettleTolerance * *previous) {
            out.state = CalibrationState::Settled;
            out.threshold = proposal;
            out.settled_at = c;
            calibrating = false;
            run = 0;
        }
        previous = proposal;
    }
    return out;
}

}  // namespace tokenscope::fleet
