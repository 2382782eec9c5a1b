// Timeline level-of-detail cost: one lane of 10M activities (mixed 1-50 ns and an
// occasional wide kernel). Prints the index build time, and the median query time
// and item count fully zoomed out (2000 px) and at several zoom levels: the cost
// follows the items drawn, not the activities in the lane.
// Usage: timeline_lod_bench [activities].
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "analysis/timeline/timeline_lod.h"

using namespace tokenscope;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
    std::mt19937_64 rng(3);
    std::vector<trace::Activity> lane(n);
    std::int64_t t = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t len =
            i % 100'000 == 0 ? 2'000'000 : 1 + static_cast<std::int64_t>(rng() % 50);
        lane[i].start_ns = t;
        lane[i].end_ns = t + len;
        t += len + static_cast<std::int64_t>(rng() % 100);
    }
    auto b0 = Clock::now();
    analysis::TimelineLod lod(lane);
    std::printf("lane: %zu activities over %.3f s; index build %.0f ms\n", n, double(t) / 1e9,
                std::chrono::duration<double, std::milli>(Clock::now() - b0).count());
    const double pixels = 2000;
    std::printf("%-14s %12s %10s %12s\n", "view", "median us", "items", "activities");
    for (double fraction : {1.0, 0.1, 0.01, 0.001, 0.0001}) {
        const auto width = static_cast<std::int64_t>(double(t) * fraction);
        std::vector<double> us;
        std::size_t items = 0, covered = 0;
        for (int r = 0; r < 21; ++r) {
            const std::int64_t t0 =
                fraction == 1.0 ? 0 : static_cast<std::int64_t>(rng() % (t - width));
            const auto q0 = Clock::now();
            auto out = lod.items(t0, t0 + width, double(width) / pixels);
            us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - q0).count());
            items = out.size();
            covered = 0;
            for (const auto& it : out) covered += it.count;
        }
        std::sort(us.begin(), us.end());
        std::printf("%-14g %12.1f %10zu %12zu\n", fraction, us[us.size() / 2], items, covered);
    }
    return 0;
}
