#include "client_server_join.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "clock_offset_fit.h"

namespace tokenscope::analysis {
namespace {

using Side = JoinError::Side;

// Unix times between 2001 and 2100: a clock that reads so is an epoch clock (a
// monotonic or session clock would need decades of uptime to get there).
constexpr std::int64_t kEpoch2001Ns = 978'307'200'000'000'000;
constexpr std::int64_t kEpoch2100Ns = 4'102'444'800'000'000'000;
// Emissions the fit looks at: a stride sample keeps it fast on millions of tokens
// and loses nothing of the offset (it needs one token that landed on its end).
constexpr std::size_t kFitSample = 262'144;

bool is_epoch(std::int64_t t) {
    return t > kEpoch2001Ns && t < kEpoch2100Ns;
}

std::string seconds(std::int64_t ns) {
    char text[64];
    std::snprintf(text, sizeof text, "%.3f s", static_cast<double>(ns) / 1e9);
    return text;
}

struct Prepared {
    std::vector<std::int64_t> emissions;  // sample, client clock, sorted
    std::vector<std::int64_t> ends;       // every iteration end, server clock, sorted
    std::size_t tokens = 0;
    std::int64_t min_offset = 0, max_offset = 0;
    bool comparable = false;  // both clocks read as Unix time
};

void check_client(const trace::RunData& client, std::size_t tokens, std::size_t iterations,
                  std::int64_t first_emission) {
    const std::string& name = client.info.name;
    if (tokens == 0 && iterations > 0)
        throw JoinError(Side::Client, name,
                        "an engine trace (it has " + std::to_string(iterations) +
                            " iterations), not a load generator's per-request results; the "
                            "client comes first, the server trace second");
    if (tokens == 0)
        throw JoinError(Side::Client, name,
                        client.requests.empty()
                            ? "no per-request records (a summary-only result?): nothing to join"
                            : "no token emissions (every request failed or was not streamed)");
    if (iterations > 0)
        throw JoinError(Side::Client, name,
                        "holds both engine iterations and token emissions (already joined?)");
    if (!is_epoch(first_emission))
        throw JoinError(Side::Client, name,
                        "no absolute times (its first emission reads " + seconds(first_emission) +
                            ", not a Unix time; LLMPerf's individual responses, for one, carry "
                            "none): its requests cannot be placed on the server's clock");
}

void check_server(const trace::RunData& server, std::size_t iterations, std::size_t tokens) {
    if (iterations > 0) return;
    throw JoinError(Side::Server, server.info.name,
                    tokens > 0 ? "a client's per-request results (token emissions, no engine "
                                 "iterations), not a server trace"
                               : "no engine iterations: no iteration marker (vLLM, TensorRT-LLM, "
                                 "SGLang, ProfilerStep#N, step N) matched its ranges");
}

// With both clocks on Unix time the offset is small; outside +-max_offset the files are
// of different benchmarks, and the join says which way instead of guessing.
void comparable_range(Prepared& p, const trace::RunData& client, const trace::RunData& server,
                      const JoinOptions& o) {
    const std::int64_t e0 = p.emissions.front(), e1 = p.emissions.back();
    const std::int64_t t0 = p.ends.front(), t1 = p.ends.back();
    const std::string names =
        "client run '" + client.info.name + "', server run '" + server.info.name + "'";
    const std::string range = "+-" + seconds(o.max_offset_ns);
    if (e1 + o.max_offset_ns < t0)
        throw JoinError(Side::Both, names,
                        "the client's token emissions precede every iteration of the server (its "
                        "last emission is " +
                            seconds(t0 - e1) +
                            " before the first iteration ends): no clock offset within " + range +
                            " places them after an iteration's end. Both clocks read as Unix "
                            "time, so these look like files of different benchmarks");
    if (e0 - o.max_offset_ns > t1 + o.max_lag_ns)
        throw JoinError(Side::Both, names,
                        "the client's token emissions all follow the server's last iteration (its "
                        "first emission is " +
                            seconds(e0 - t1) +
                            " after the last iteration ends): no clock offset "
                            "within " +
                            range + " places them within " + seconds(o.max_lag_ns) +
                            " of an iteration's end. Both clocks read as Unix time, so these "
                            "look like files of different benchmarks");
    p.min_offset = std::max(p.min_offset, -o.max_offset_ns);
    p.max_offset = std::min(p.max_offset, o.max_offset_ns);
}

Prepared prepare(const trace::RunData& client, const trace::RunData& server, const JoinOptions& o) {
    Prepared p;
    std::size_t client_iterations = 0, server_iterations = 0, server_tokens = 0;
    std::int64_t first = kEpoch2100Ns;
    for (const auto& s : client.steps) {
        if (s.is_token()) {
            ++p.tokens;
            first = std::min(first, s.end_ns);
        } else if (s.is_iteration()) {
            ++client_iterations;
        }
    }
    check_client(client, p.tokens, client_iterations, first);
    for (const auto& s : server.steps) {
        if (s.is_iteration()) {
            ++server_iterations;
            p.ends.push_back(s.end_ns);
        } else if (s.is_token()) {
            ++server_tokens;
        }
    }
    check_server(server, server_iterations, server_tokens);
    std::sort(p.ends.begin(), p.ends.end());
    const std::size_t stride = std::max<std::size_t>(1, client.steps.size() / kFitSample);
    for (std::size_t i = 0; i < client.steps.size(); i += stride)
        if (client.steps[i].is_token()) p.emissions.push_back(client.steps[i].end_ns);
    std::sort(p.emissions.begin(), p.emissions.end());
    // Outside this range every emission falls before the first end or past the last.
    p.min_offset = p.ends.front() - p.emissions.back();
    p.max_offset = p.ends.back() + o.max_lag_ns - p.emissions.front();
    p.comparable = is_epoch(p.ends.front()) && is_epoch(p.ends.back());
    if (p.comparable && !o.offset_ns) comparable_range(p, client, server, o);
    return p;
}

ClockOffsetFit fit(const Prepared& p, const trace::RunData& client, const trace::RunData& server,
                   const JoinOptions& o, const trace::StopToken& stop) {
    ClockOffsetFitInput in{p.emissions, p.ends, o.max_lag_ns, p.min_offset, p.max_offset};
    ClockOffsetFit f =
        o.offset_ns ? evaluate_clock_offset(in, *o.offset_ns) : fit_clock_offset(in, stop);
    if (f.matched_share > 0) return f;
    throw JoinError(Side::Both,
                    "client run '" + client.info.name + "', server run '" + server.info.name + "'",
                    o.offset_ns ? "with the clock offset given (" + seconds(*o.offset_ns) +
                                      ") no token emission follows an iteration's end within " +
                                      seconds(o.max_lag_ns)
                                : "no clock offset places the client's token emissions after the "
                                  "server's iteration ends (within " +
                                      seconds(o.max_lag_ns) + ")");
}

void add_diagnostics(trace::RunData& out, const ClockOffsetFit& f, double share, std::size_t tokens,
                     const std::string& client_name, const JoinOptions& o) {
    using trace::Severity;
    out.diagnostics.push_back(
        {kJoinOffsetDiagnostic, Severity::Info, static_cast<double>(f.offset_ns),
         "server clock = client clock + " + std::to_string(f.offset_ns) + " ns (" +
             (o.offset_ns ? "as given"
                          : "fitted: emissions follow iteration ends with the least "
                            "total lag") +
             "); requests and tokens from client run '" + client_name + "'"});
    out.diagnostics.push_back(
        {kJoinResidualDiagnostic, Severity::Info, static_cast<double>(f.residual_ns),
         "median lag of a token emission behind its iteration's end after the fit, ns (the "
         "network and detokenize hop beyond the shortest one, which the offset absorbs)"});
    out.diagnostics.push_back({kJoinShareDiagnostic, Severity::Info, share,
                               "share of the client's " + std::to_string(tokens) +
                                   " tokens that found a server iteration ending at most " +
                                   seconds(o.max_lag_ns) + " before them"});
    if (f.median_gap_ns > 0 && f.residual_ns > f.median_gap_ns / 4)
        out.diagnostics.push_back(
            {"join_clock_weak_fit", Severity::DataLoss, static_cast<double>(f.residual_ns),
             "the typical lag after the fit is over a quarter of an iteration (" +
                 std::to_string(f.median_gap_ns) +
                 " ns apart): the tokens may be attributed to the wrong iterations"});
}

void report(const JoinOptions& o, const trace::StopToken& stop, std::int64_t done) {
    stop.throw_if_stopped();
    if (o.progress && !o.progress(done, 4)) throw trace::Cancelled();
}

// Iterations first, as the store gives them back (request 0 sorts first), then the
// client's tokens shifted. In the client's vector where it has room; else one pass into
// a new one (the client's freed after), never more than one extra copy of the tokens.
std::vector<trace::Step> join_steps(std::vector<trace::Step>&& tokens, std::size_t count,
                                    const std::vector<trace::Step>& iterations, std::int64_t offset,
                                    const trace::StopToken& stop) {
    auto shift = [offset](trace::Step s) {
        s.shift(offset);
        return s;
    };
    if (tokens.capacity() >= count + iterations.size()) {
        tokens.erase(std::remove_if(tokens.begin(), tokens.end(),
                                    [](const trace::Step& s) { return !s.is_token(); }),
                     tokens.end());
        trace::for_each_stoppable(tokens, stop, [&](trace::Step& s) { s = shift(s); });
        tokens.insert(tokens.begin(), iterations.begin(), iterations.end());
        return std::move(tokens);
    }
    std::vector<trace::Step> steps;
    steps.reserve(count + iterations.size());
    steps.insert(steps.end(), iterations.begin(), iterations.end());
    trace::for_each_stoppable(tokens, stop, [&](const trace::Step& s) {
        if (s.is_token()) steps.push_back(shift(s));
    });
    std::vector<trace::Step>().swap(tokens);
    return steps;
}

// Moves what each side owns into one run; tokens and requests shifted by the offset.
trace::RunData assemble(trace::RunData&& client, trace::RunData&& server, std::size_t tokens,
                        std::int64_t offset, const trace::StopToken& stop) {
    // Everything of the server's (strings, lanes, activities, counters, launches, CUDA
    // graphs, ...) moves over whole; steps and requests are rebuilt below.
    trace::RunData out = std::move(server);
    out.info.id = 0;
    out.info.name = client.info.name + " + " + out.info.name;
    out.info.complete = client.info.complete && out.info.complete;
    for (auto& d : client.diagnostics) out.diagnostics.push_back(std::move(d));
    std::vector<trace::Step> iterations;
    std::copy_if(out.steps.begin(), out.steps.end(), std::back_inserter(iterations),
                 [](const trace::Step& s) { return s.is_iteration(); });
    std::vector<trace::Step>().swap(out.steps);
    out.steps = join_steps(std::move(client.steps), tokens, iterations, offset, stop);
    out.requests = std::move(client.requests);
    for (auto& r : out.requests) {
        r.arrival_ns += offset;
        r.first_token_ns += offset;
        r.done_ns += offset;
    }
    return out;
}

trace::RunData join(trace::RunData&& client, trace::RunData&& server, const Prepared& p,
                    const ClockOffsetFit& f, const JoinOptions& o, const trace::StopToken& stop) {
    report(o, stop, 1);
    const std::string client_name = client.info.name;
    trace::RunData out =
        assemble(std::move(client), std::move(server), p.tokens, f.offset_ns, stop);
    report(o, stop, 2);
    const auto links = token_iterations(out, {o.max_lag_ns});
    const double share = matched_token_share(out, links);
    report(o, stop, 3);
    add_diagnostics(out, f, share, p.tokens, client_name, o);
    if (share < 1.0)
        out.diagnostics.push_back(
            {"join_unmatched_tokens", trace::Severity::Info,
             static_cast<double>(p.tokens) * (1.0 - share),
             "tokens emitted where the server trace has no iteration ending shortly before "
             "(outside its capture window, or after a long stall); they keep no iteration"});
    report(o, stop, 4);
    return out;
}

}  // namespace

trace::RunData join_client_server(const trace::RunData& client, const trace::RunData& server,
                                  const JoinOptions& options, const trace::StopToken& stop) {
    report(options, stop, 0);
    const Prepared p = prepare(client, server, options);
    const ClockOffsetFit f = fit(p, client, server, options, stop);
    return join(trace::RunData(client), trace::RunData(server), p, f, options, stop);
}

trace::RunData join_client_server(trace::RunData&& client, trace::RunData&& server,
                                  const JoinOptions& options, const trace::StopToken& stop) {
    report(options, stop, 0);
    const Prepared p = prepare(client, server, options);
    const ClockOffsetFit f = fit(p, client, server, options, stop);
    return join(std::move(client), std::move(server), p, f, options, stop);
}

}  // namespace tokenscope::analysis
