#include "analysis/sweep/sla_attainment.h"

#include <gtest/gtest.h>

namespace tokenscope::analysis {
namespace {

trace::Request req(std::int64_t id, std::int64_t arrival, std::int64_t first, std::int64_t done,
                   std::int32_t out, bool failed = false) {
    trace::Request r;
    r.id = id;
    r.arrival_ns = arrival;
    r.first_token_ns = first;
    r.done_ns = done;
    r.output_len = out;
    r.failed = failed;
    return r;
}

constexpr std::int64_t ms = 1'000'000;

TEST(SlaAttainment, ExactOnHandMadeRequests) {
    std::vector<trace::Request> rs = {
        req(1, 0, 100 * ms, 100 * ms + 9 * 40 * ms, 10),  // TTFT 100, TPOT 40: meets
        req(2, 0, 200 * ms, 200 * ms + 9 * 50 * ms, 10),  // TTFT 200, TPOT 50: on both bounds
        req(3, 0, 201 * ms, 201 * ms + 9 * 10 * ms, 10),  // TTFT 201: misses
        req(4, 0, 50 * ms, 50 * ms + 9 * 51 * ms, 10),    // TPOT 51: misses
        req(5, 0, 10 * ms, 10 * ms, 1),                   // no TPOT: judged on TTFT, meets
        req(6, 0, 0, 0, 0, true),                         // failed: a miss
    };
    SlaBounds sla{200 * ms, 50 * ms};
    Attainment a = sla_attainment(rs, sla);
    EXPECT_EQ(a.requests, 6);
    EXPECT_EQ(a.met, 3);
    EXPECT_DOUBLE_EQ(a.fraction, 0.5);
    // 3 met over 0 .. the last done (request 2 at 200 + 450 ms).
    EXPECT_DOUBLE_EQ(a.goodput, 3.0 / 0.650);
}

TEST(SlaAttainment, OmittedBoundsAreNotChecked) {
    std::vector<trace::Request> rs = {req(1, 0, 900 * ms, 1000 * ms, 2), req(2, 0, 0, 0, 0, true)};
    EXPECT_EQ(sla_attainment(rs, {}).met, 1);
    EXPECT_EQ(sla_attainment(rs, {std::nullopt, 50 * ms}).met, 0);  // TPOT 100 ms
    EXPECT_EQ(sla_attainment({}, {}).fraction, 0.0);
}

}  // namespace
}  // namespace tokenscope::analysis
