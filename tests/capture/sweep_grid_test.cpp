// The typed grid syntax of `tokenscope-cli sweep` and the product of its axes.
#include "capture/sweep/sweep_grid.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "capture/sweep/sweep_point.h"

namespace tokenscope::capture {
namespace {

using V = std::vector<std::string>;

TEST(SweepGrid, ListsAndRangesExpand) {
    EXPECT_EQ(expand_axis("1,8,32"), (V{"1", "8", "32"}));
    EXPECT_EQ(expand_axis("128:4096:x2"), (V{"128", "256", "512", "1024", "2048", "4096"}));
    EXPECT_EQ(expand_axis("1:40:+2").size(), 20u);  // 1, 3, ..., 39; 40 is not met
    EXPECT_EQ(expand_axis("1:40:+2").back(), "39");
    EXPECT_EQ(expand_axis("0.5:2:+0.5"), (V{"0.5", "1", "1.5", "2"}));
    EXPECT_EQ(expand_axis("1,4:16:x4,100"), (V{"1", "4", "16", "100"}));
    // Values with colons that are not ranges stay one value.
    EXPECT_EQ(expand_axis("greedy,beam:4,speculative:2:4"),
              (V{"greedy", "beam:4", "speculative:2:4"}));
    EXPECT_EQ(expand_axis("poisson:10,closed:8"), (V{"poisson:10", "closed:8"}));
}

TEST(SweepGrid, BadListsNameTheProblem) {
    for (const char* bad : {"", "1,,2", "8:1:x2", "1:8:x1", "0:8:x2", "1:8:+0", "1:8:+x"})
        EXPECT_THROW(expand_axis(bad), std::invalid_argument) << bad;
}

TEST(SweepGrid, LastAxisVariesFastest) {
    SweepGrid g({{"batch", {"1", "8"}}, {"prompt", {"128", "512", "2048"}}});
    ASSERT_EQ(g.size(), 6);
    EXPECT_EQ(g.point(0), (V{"1", "128"}));
    EXPECT_EQ(g.point(2), (V{"1", "2048"}));
    EXPECT_EQ(g.point(3), (V{"8", "128"}));
    EXPECT_THROW(g.point(6), std::out_of_range);
    EXPECT_EQ(SweepGrid({}).size(), 1);
}

TEST(SweepPoint, ParametersResolveToADecodeOrServingConfig) {
    auto d = resolve_point({{"batch", "8"}, {"strategy", "speculative:3:5"}, {"prompt", "256"}});
    EXPECT_FALSE(d.serving);
    EXPECT_EQ(d.capture.decode.batch, 8);
    EXPECT_EQ(d.capture.decode.draft_layers, 3);
    EXPECT_EQ(d.capture.decode.gamma, 5);
    auto s = resolve_point({{"arrival", "gamma:12.5:3"},
                            {"max-num-seqs", "4"},
                            {"chunked-prefill", "on"},
                            {"duration", "2m"}});
    ASSERT_TRUE(s.serving);
    EXPECT_EQ(s.serving->arrival.kind, ArrivalKind::Gamma);
    EXPECT_DOUBLE_EQ(s.serving->arrival.rate, 12.5);
    EXPECT_DOUBLE_EQ(s.serving->arrival.burstiness, 3.0);
    EXPECT_EQ(s.serving->max_num_seqs, 4);
    EXPECT_TRUE(s.serving->chunked_prefill);
    EXPECT_DOUBLE_EQ(s.serving->duration_s, 120.0);
    EXPECT_EQ(parse_duration_ns("200ms"), 200'000'000);
    EXPECT_EQ(parse_duration_ns("1.5s"), 1'500'000'000);
    EXPECT_THROW(resolve_point({{"bacth", "8"}}), std::invalid_argument);
    EXPECT_THROW(resolve_point({{"qps", "5"}, {"strategy", "beam:4"}}), std::invalid_argument);
    EXPECT_THROW(resolve_point({{"arrival", "uniform:3"}}), std::invalid_argument);
}

}  // namespace
}  // namespace tokenscope::capture
