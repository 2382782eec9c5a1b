#include <gtest/gtest.h>

#include "analysis/join/token_iterations.h"

using namespace tokenscope;

namespace {

trace::Step iteration(std::int32_t n, std::int64_t start, std::int64_t end) {
    trace::Step s;
    s.index = n;
    s.phase = trace::Phase::Iteration;
    s.start_ns = start;
    s.end_ns = end;
    return s;
}

trace::Step token(std::int64_t request, std::int32_t index, std::int64_t start, std::int64_t end) {
    trace::Step s;
    s.request = request;
    s.index = index;
    s.start_ns = start;
    s.end_ns = end;
    return s;
}

}  // namespace

TEST(TokenIterations, TokenBelongsToTheIterationThatEndedLastBeforeIt) {
    trace::RunData run;
    // Iterations listed out of time order on purpose.
    run.steps = {iteration(2, 2000, 3000), iteration(1, 1000, 2000),    token(7, 0, 0, 2100),
                 token(7, 1, 2100, 3000),  token(7, 2, 3000, 2999'000), token(8, 0, 0, 999)};
    auto links = analysis::token_iterations(run, {.max_lag_ns = 1000});
    ASSERT_EQ(links.size(), run.steps.size());
    EXPECT_EQ(links[0], -1);  // iterations carry no link
    EXPECT_EQ(links[1], -1);
    EXPECT_EQ(links[2], 1);   // emitted 100 ns after iteration 1 ended
    EXPECT_EQ(links[3], 0);   // emitted exactly at iteration 2's end
    EXPECT_EQ(links[4], -1);  // far beyond the allowed lag
    EXPECT_EQ(links[5], -1);  // before every iteration
    EXPECT_DOUBLE_EQ(analysis::matched_token_share(run, links), 0.5);
}

TEST(TokenIterations, RunWithoutIterationsHasNoLinks) {
    trace::RunData run;
    run.steps = {token(1, 0, 0, 10), token(1, 1, 10, 20)};
    auto links = analysis::token_iterations(run);
    EXPECT_EQ(links, std::vector<std::int32_t>(2, -1));
    EXPECT_DOUBLE_EQ(analysis::matched_token_share(run, links), 0.0);
}
