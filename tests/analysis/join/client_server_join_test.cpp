// The client/server join on planted runs: a server with irregular iterations and a
// client whose tokens are emitted a random hop after their (known) iteration's end,
// on a clock shifted by a known offset. Expected offsets and iterations are the
// planted ones.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "analysis/join/client_server_join.h"
#include "trace/stop_source.h"

using namespace tokenscope;

namespace {

constexpr std::int64_t kEpoch2026Ns = 1'767'225'600'000'000'000;  // 2026-01-01 UTC
constexpr std::int64_t kUs = 1000, kMs = 1'000'000, kS = 1'000'000'000;

struct Planted {
    trace::RunData client, server;
    std::vector<std::int32_t> truth;  // per client step: the iteration number that emitted it
    std::vector<std::int64_t> ends;   // iteration k ends at ends[k], server clock
};

struct Plan {
    std::int64_t server_start = 5'000 * kS;  // a boot clock: not a Unix time
    std::int64_t offset = 0;                 // server = client + offset
    int iterations = 3000;
    int slots = 16;                // requests decoded together
    int tokens = 40;               // per request
    std::int64_t hop = 100 * kUs;  // emissions lag their iteration by U[0, hop)
    double outliers = 0;           // share of tokens with a long (5-40 ms) hop
    bool regular = false;          // every iteration 10 ms after the first (no prefills)
    std::uint32_t seed = 7;
};

trace::RunData server_run(const Plan& plan, std::mt19937& rng, std::vector<std::int64_t>& ends) {
    trace::RunData server;
    server.info.name = "server";
    server.lanes.push_back({trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"});
    std::uniform_int_distribution<std::int64_t> gap(8 * kMs, 14 * kMs);
    std::int64_t t = plan.server_start;
    for (int k = 0; k < plan.iterations; ++k) {
        trace::Step s;
        s.index = k;
        s.phase = trace::Phase::Iteration;
        s.start_ns = t;
        if (plan.regular)
            t += k == 0 ? 40 * kMs : 10 * kMs;
        else
            t += k % 50 == 0 ? 40 * kMs : gap(rng);  // a prefill now and then
        s.end_ns = t;
        server.steps.push_back(s);
        ends.push_back(t);
        trace::Activity a;
        a.start_ns = s.start_ns;
        a.end_ns = s.end_ns - 10 * kUs;
        a.name = server.strings.intern("gemm");
        server.activities.push_back(a);
    }
    return server;
}

// Requests run back to back in `slots`; a request's tokens come from consecutive
// iterations, each seen by the client a hop after the iteration ended.
Planted plant(const Plan& plan) {
    Planted p;
    std::mt19937 rng(plan.seed);
    std::vector<std::int64_t>& ends = p.ends;
    p.server = server_run(plan, rng, ends);
    p.client.info.name = "client";
    std::uniform_int_distribution<std::int64_t> hop(0, plan.hop - 1), longhop(5 * kMs, 40 * kMs);
    std::uniform_real_distribution<double> coin(0, 1);
    std::int64_t id = 1;
    for (int slot = 0; slot < plan.slots; ++slot) {
        for (int first = slot % plan.tokens; first + plan.tokens <= plan.iterations;
             first += plan.tokens) {
            trace::Request r;
            r.id = id++;
            r.arrival_ns = ends[first] - 30 * kMs - plan.offset;
            std::int64_t prev = r.arrival_ns;
            for (int k = 0; k < plan.tokens; ++k) {
                const std::int64_t lag = coin(rng) < plan.outliers ? longhop(rng) : hop(rng);
                std::int64_t emitted = std::max(prev, ends[first + k] + lag - plan.offset);
                trace::Step s{r.id, k,       k == 0 ? trace::Phase::Prefill : trace::Phase::Decode,
                              prev, emitted, 0,
                              {}};
                p.client.steps.push_back(s);
                p.truth.push_back(first + k);
                prev = emitted;
            }
            r.first_token_ns = p.client.steps[p.client.steps.size() - plan.tokens].end_ns;
            r.done_ns = prev;
            r.output_len = plan.tokens;
            p.client.requests.push_back(r);
        }
    }
    return p;
}

// Tokens of the joined run assigned to their planted iteration.
double true_share(const trace::RunData& joined, const Planted& p) {
    auto links = analysis::token_iterations(joined);
    std::size_t token = 0, right = 0;
    for (std::size_t i = 0; i < joined.steps.size(); ++i) {
        if (joined.steps[i].is_iteration()) continue;
        if (links[i] >= 0 && joined.steps[links[i]].index == p.truth[token]) ++right;
        ++token;
    }
    EXPECT_EQ(token, p.truth.size());
    return static_cast<double>(right) / static_cast<double>(token);
}

// Tokens that can be told apart at all: seen before the next iteration ended (a token
// seen later looks like that iteration's), within the join's 50 ms lag.
double assignable_share(const Planted& p, std::int64_t offset) {
    std::size_t right = 0;
    for (std::size_t i = 0; i < p.truth.size(); ++i) {
        const std::int64_t seen = p.client.steps[i].end_ns + offset;
        const auto k = static_cast<std::size_t>(p.truth[i]);
        const bool before_next = k + 1 == p.ends.size() || seen < p.ends[k + 1];
        if (seen >= p.ends[k] && before_next && seen - p.ends[k] <= 50 * kMs) ++right;
    }
    return static_cast<double>(right) / static_cast<double>(p.truth.size());
}

const trace::Diagnostic* diagnostic(const trace::RunData& run, const std::string& name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return &d;
    return nullptr;
}

std::int64_t fitted_offset(const trace::RunData& joined) {
    const trace::Diagnostic* d = diagnostic(joined, analysis::kJoinOffsetDiagnostic);
    EXPECT_NE(d, nullptr);
    return d == nullptr ? 0 : static_cast<std::int64_t>(d->value);
}

}  // namespace

TEST(ClientServerJoin, EpochClientOnABootClockServer) {
    Plan plan;
    plan.offset = plan.server_start - kEpoch2026Ns;  // client on Unix time
    Planted p = plant(plan);
    auto joined = analysis::join_client_server(p.client, p.server);
    // The fit absorbs the shortest hop, which is within a few ns of 0 here.
    EXPECT_NEAR(static_cast<double>(fitted_offset(joined) - plan.offset), 0.0, 50.0 * kUs);
    EXPECT_GE(true_share(joined, p), 0.999);
    const trace::Diagnostic* share = diagnostic(joined, analysis::kJoinShareDiagnostic);
    ASSERT_NE(share, nullptr);
    EXPECT_GE(share->value, 0.999);
    const trace::Diagnostic* residual = diagnostic(joined, analysis::kJoinResidualDiagnostic);
    ASSERT_NE(residual, nullptr);
    // Median of U[0, 100 us) is 50 us.
    EXPECT_NEAR(residual->value, 50.0 * kUs, 10.0 * kUs);
}

TEST(ClientServerJoin, PlusMinusTenSecondsOnUnixClocks) {
    for (std::int64_t offset : {10 * kS, -10 * kS}) {
        Plan plan;
        plan.server_start = kEpoch2026Ns;
        plan.offset = offset;
        Planted p = plant(plan);
        auto joined = analysis::join_client_server(p.client, p.server);
        EXPECT_NEAR(static_cast<double>(fitted_offset(joined) - offset), 0.0, 50.0 * kUs);
        EXPECT_GE(true_share(joined, p), 0.999);
    }
}

TEST(ClientServerJoin, OutliersDoNotMoveTheOffset) {
    Plan plan;
    plan.server_start = kEpoch2026Ns;
    plan.offset = 3 * kS;
    plan.outliers = 0.03;  // 3% of tokens seen 5-40 ms late
    Planted p = plant(plan);
    auto joined = analysis::join_client_server(p.client, p.server);
    EXPECT_NEAR(static_cast<double>(fitted_offset(joined) - plan.offset), 0.0, 50.0 * kUs);
    // Late tokens seen after the next iteration ended (and those they held back) cannot
    // be told from that iteration's; every other one is assigned right.
    const double assignable = assignable_share(p, plan.offset);
    EXPECT_GT(assignable, 0.9);
    EXPECT_LT(assignable, 0.99);
    EXPECT_GE(true_share(joined, p), assignable - 0.001);
}

// Iterations as regular as a clock: a shift by whole iterations fits every token as
// well, except at the edges (the client's first tokens would precede the first end).
TEST(ClientServerJoin, RegularEngineIsToldByTheEdges) {
    Plan plan;
    plan.server_start = kEpoch2026Ns;
    plan.offset = -7 * kS;
    plan.regular = true;
    plan.iterations = 2000;
    plan.slots = 4;
    plan.tokens = 1990;  // four requests, each spanning nearly the whole trace
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
        plan.seed = seed;
        Planted p = plant(plan);
        auto joined = analysis::join_client_server(p.client, p.server);
        EXPECT_NEAR(static_cast<double>(fitted_offset(joined) - plan.offset), 0.0, 50.0 * kUs)
            << seed;
    }
}

TEST(ClientServerJoin, ServerTraceCoveringATenthOfTheBenchmark) {
    Plan plan;
    plan.offset = plan.server_start - kEpoch2026Ns;
    Planted p = plant(plan);
    // Keep iterations 1200..1500 only, as a profiler capturing a window would.
    std::vector<trace::Step> kept;
    for (const auto& s : p.server.steps)
        if (s.index >= 1200 && s.index < 1500) kept.push_back(s);
    p.server.steps = kept;
    auto joined = analysis::join_client_server(p.client, p.server);
    EXPECT_NEAR(static_cast<double>(fitted_offset(joined) - plan.offset), 0.0, 50.0 * kUs);
    const trace::Diagnostic* share = diagnostic(joined, analysis::kJoinShareDiagnostic);
    ASSERT_NE(share, nullptr);
    EXPECT_NEAR(share->value, 0.1, 0.02);
}

TEST(ClientServerJoin, ResultTakesEachSideFromItsOwner) {
    Plan plan;
    plan.server_start = kEpoch2026Ns;
    plan.offset = -2 * kS;
    plan.iterations = 400;
    Planted p = plant(plan);
    p.server.diagnostics.push_back({"server_note", trace::Severity::Info, 1, "x"});
    p.client.diagnostics.push_back({"client_note", trace::Severity::Info, 2, "y"});
    const std::int64_t offset = fitted_offset(analysis::join_client_server(p.client, p.server));
    auto joined = analysis::join_client_server(std::move(trace::RunData(p.client)),
                                               std::move(trace::RunData(p.server)));
    EXPECT_EQ(joined.activities, p.server.activities);
    EXPECT_EQ(joined.lanes, p.server.lanes);
    ASSERT_EQ(joined.requests.size(), p.client.requests.size());
    EXPECT_EQ(joined.requests[3].arrival_ns, p.client.requests[3].arrival_ns + offset);
    EXPECT_EQ(joined.requests[3].done_ns, p.client.requests[3].done_ns + offset);
    ASSERT_EQ(joined.steps.size(), p.client.steps.size() + p.server.steps.size());
    EXPECT_EQ(joined.steps.front(), p.server.steps.front());  // iterations first
    const trace::Step& last = joined.steps.back();
    EXPECT_EQ(last.end_ns, p.client.steps.back().end_ns + offset);
    EXPECT_EQ(last.start_ns, p.client.steps.back().start_ns + offset);
    EXPECT_NE(diagnostic(joined, "server_note"), nullptr);
    EXPECT_NE(diagnostic(joined, "client_note"), nullptr);
}

TEST(ClientServerJoin, GivenOffsetIsUsedAsItIs) {
    Plan plan;
    plan.server_start = kEpoch2026Ns;
    plan.offset = 4 * kS;
    plan.iterations = 400;
    Planted p = plant(plan);
    analysis::JoinOptions options;
    options.offset_ns = 4 * kS + 123;
    auto joined = analysis::join_client_server(p.client, p.server, options);
    EXPECT_EQ(fitted_offset(joined), 4 * kS + 123);
}

TEST(ClientServerJoin, ClientBeforeEveryIterationIsRefused) {
    Plan plan;
    plan.server_start = kEpoch2026Ns;
    plan.offset = 3600 * kS;  // the client ran an hour before the server trace
    plan.iterations = 400;
    Planted p = plant(plan);
    try {
        analysis::join_client_server(p.client, p.server);
        FAIL() << "joined a client that precedes every iteration";
    } catch (const analysis::JoinError& e) {
        EXPECT_EQ(e.side(), analysis::JoinError::Side::Both);
        EXPECT_NE(std::string(e.what()).find("precede every iteration"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("client run 'client'"), std::string::npos);
    }
}

TEST(ClientServerJoin, BadPairsAreRefusedNamingTheSide) {
    Plan plan;
    plan.server_start = kEpoch2026Ns;
    plan.iterations = 300;
    Planted p = plant(plan);
    auto side_of = [](const trace::RunData& c, const trace::RunData& s) {
        try {
            analysis::join_client_server(c, s);
        } catch (const analysis::JoinError& e) {
            return std::make_pair(e.side(), std::string(e.what()));
        }
        return std::make_pair(analysis::JoinError::Side::Both, std::string("joined"));
    };
    auto [side, what] = side_of(p.server, p.server);
    EXPECT_EQ(side, analysis::JoinError::Side::Client);
    EXPECT_NE(what.find("an engine trace"), std::string::npos) << what;
    std::tie(side, what) = side_of(p.client, p.client);
    EXPECT_EQ(side, analysis::JoinError::Side::Server);
    EXPECT_NE(what.find("not a server trace"), std::string::npos) << what;
    trace::RunData relative = p.client;  // LLMPerf-like: times from 0
    for (auto& s : relative.steps) s.end_ns -= kEpoch2026Ns - 10 * kS, s.start_ns = 0;
    std::tie(side, what) = side_of(relative, p.server);
    EXPECT_EQ(side, analysis::JoinError::Side::Client);
    EXPECT_NE(what.find("no absolute times"), std::string::npos) << what;
    trace::RunData no_iterations = p.server;
    no_iterations.steps.clear();
    std::tie(side, what) = side_of(p.client, no_iterations);
    EXPECT_EQ(side, analysis::JoinError::Side::Server);
    EXPECT_NE(what.find("no engine iterations"), std::string::npos) << what;
}

TEST(ClientServerJoin, StopsWhenAsked) {
    Plan plan;
    plan.server_start = kEpoch2026Ns;
    plan.iterations = 400;
    Planted p = plant(plan);
    trace::StopSource source;
    source.request_stop();
    EXPECT_THROW(analysis::join_client_server(p.client, p.server, {}, source.token()),
                 trace::Cancelled);
    analysis::JoinOptions options;
    int calls = 0;
    options.progress = [&](std::int64_t, std::int64_t) { return ++calls < 3; };
    EXPECT_THROW(analysis::join_client_server(p.client, p.server, options), trace::Cancelled);
    EXPECT_EQ(calls, 3);
}
