#include "clock_sampler.h"

#include <cupti_activity.h>
#include <time.h>

#include "cupti_error.h"

namespace tokenscope::capture::cupti {

std::int64_t ClockSampler::host_now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

ClockPair ClockSampler::sample(int burst) {
    ClockPair best;
    for (int i = 0; i < (burst > 0 ? burst : 1); ++i) {
        ClockPair p;
        std::uint64_t gpu = 0;
        p.host_before_ns = host_now_ns();
        check_cupti(cuptiGetTimestamp(&gpu), "cuptiGetTimestamp");
        p.host_after_ns = host_now_ns();
        p.gpu_ns = static_cast<std::int64_t>(gpu);
        if (i == 0 || p.host_after_ns - p.host_before_ns < best.host_after_ns - best.host_before_ns)
            best = p;
    }
    pairs_.push_back(best);
    return best;
}

}  // namespace tokenscope::capture::cupti
