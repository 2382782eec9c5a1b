#pragma once

#include <cstdint>
#include <vector>

#include "trace/stop_token.h"

namespace tokenscope::analysis {

// The clock offset fit of the client/server join (docs/engine-traces.md, Client and server
// together; not capture::GpuClockFit, which maps a GPU clock onto its host's), on plain
// sorted times: emissions on the client's clock, iteration ends on the server's.
//
// For an offset d (server = client + d) a token's lag is its emission + d minus the
// last iteration end at or before it, capped at `cap_ns` (no such end: the cap), so an
// outlier weighs no more than a token that found nothing. The fit minimises the total
// capped lag. The minimum sits where some emission lands exactly on an iteration end
// (between such offsets every matched lag grows with d), so the candidates are
// emission-minus-iteration-end differences:
//  1. coarse: anchor emissions spread over the client's time span; for each, every
//     iteration end gives a candidate, scored on a window of emissions after the
//     anchor that spans some thirty iterations plus the client's first and last few
//     (they tell a shift by whole iterations on a regular engine); branch and bound: a
//     candidate stops being scored once it is worse than the anchor's best few or than
//     the best offset so far on the same window;
//  2. each anchor's best re-scored on a sample of the whole client (its edges kept);
//  3. the exact minimum of the total lag of up to 65,536 of the emissions, swept
//     over half an iteration gap either side of the winner.
struct ClockOffsetFitInput {
    std::vector<std::int64_t> emissions;  // client clock, sorted (a sample is enough)
    std::vector<std::int64_t> ends;       // server clock, sorted
    std::int64_t cap_ns = 50'000'000;
    std::int64_t min_offset_ns = 0;  // search range, inclusive
    std::int64_t max_offset_ns = 0;
};

struct ClockOffsetFit {
    std::int64_t offset_ns = 0;
    std::int64_t residual_ns = 0;    // median lag of the matched emissions at offset_ns
    double matched_share = 0;        // emissions with lag <= cap, of those given
    double total_lag_ns = 0;         // the minimised total (capped)
    std::int64_t median_gap_ns = 0;  // between consecutive iteration ends
};

// Throws trace::Cancelled when `stop` asks. Empty emissions or ends, or an empty range:
// a ClockOffsetFit with matched_share 0.
ClockOffsetFit fit_clock_offset(const ClockOffsetFitInput& input,
                                const trace::StopToken& stop = {});

// Residual and share of a given offset over the emissions (no fit).
ClockOffsetFit evaluate_clock_offset(const ClockOffsetFitInput& input, std::int64_t offset_ns);

}  // namespace tokenscope::analysis
