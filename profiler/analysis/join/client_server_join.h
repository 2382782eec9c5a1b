#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "token_iterations.h"
#include "trace/progress.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// The join of docs/engine-traces.md, Client and server together: a load generator's requests and
// token emissions (the client run, epoch ns) over an engine's trace (the server run: iterations,
// kernels, copies, lanes, launches, on whatever clock it was captured with).
//
// Offsets read server_time = client_time + offset. The fitted offset is the one under
// which the client's emissions follow iteration ends with the least total lag
// (each token's lag capped at max_lag_ns, so outliers weigh no more than a miss); it
// therefore absorbs the smallest network/detokenize hop between an iteration's end and
// the client seeing the token.
struct JoinOptions {
    // A token belongs to the iteration that ended last at or before its emission,
    // within this lag (token_iterations' rule); also the cap of the fit's lag.
    std::int64_t max_lag_ns = TokenIterationOptions{}.max_lag_ns;
    // Where both clocks read as Unix epoch times (after 2001) they are comparable and
    // the offset is searched within +-max_offset_ns of 0: a larger gap means files of
    // different benchmarks, which the join refuses rather than guess. Where the server's
    // clock is not an epoch clock, every offset that overlaps the two runs is searched.
    std::int64_t max_offset_ns = 600'000'000'000;  // 10 min
    // Skips the fit and uses this offset (the user knows it); diagnostics still say
    // how well it places the tokens.
    std::optional<std::int64_t> offset_ns;
    // Reports (done, total) in phases of the join; returning false cancels.
    trace::ProgressFn progress;
};

// Why a join is refused. what() names the run at fault ("client run 'x': ...");
// side() says which input it is and problem() is the rest, so a caller that opened
// files can say "FILE: problem" instead.
class JoinError : public std::runtime_error {
  public:
    enum class Side { Client, Server, Both };
    JoinError(Side side, const std::string& run_name, const std::string& problem)
        : std::runtime_error(prefix(side, run_name) + problem), side_(side), problem_(problem) {}
    Side side() const { return side_; }
    const std::string& problem() const { return problem_; }

  private:
    static std::string prefix(Side side, const std::string& run_name) {
        if (side == Side::Both) return run_name.empty() ? std::string() : run_name + ": ";
        return (side == Side::Client ? "client run '" : "server run '") + run_name + "': ";
    }
    Side side_;
    std::string problem_;
};

// Names of the diagnostics the joined run carries (values in ns, share 0..1).
inline constexpr const char* kJoinOffsetDiagnostic = "join_clock_offset_ns";
inline constexpr const char* kJoinResidualDiagnostic = "join_clock_residual_ns";
inline constexpr const char* kJoinShareDiagnostic = "join_matched_token_share";

// One run: requests and token steps from `client`, shifted onto the server's clock;
// iterations, activities, lanes, counters and launches from `server`; diagnostics of
// both plus the fitted offset (ns), its residual (median lag of an emission behind its
// iteration's end, ns) and the share of tokens that found an iteration.
//
// Throws JoinError when the client has no token emissions with absolute times, the
// server has no iteration steps, or no offset in the search range places the
// emissions after iteration ends (for instance client times that precede every
// iteration). Throws trace::Cancelled once `stop` or options.progress asks.
trace::RunData join_client_server(const trace::RunData& client, const trace::RunData& server,
                                  const JoinOptions& options = {},
                                  const trace::StopToken& stop = {});

// The same, taking the inputs' storage instead of copying it: a 10M-activity server
// trace is not held twice. The inputs are left valid but unspecified.
trace::RunData join_client_server(trace::RunData&& client, trace::RunData&& server,
                                  const JoinOptions& options = {},
                                  const trace::StopToken& stop = {});

}  // namespace tokenscope::analysis
