#include "token_steps.h"

#include <algorithm>

#include "capture/model/model_workload.h"
#include "kernels/cost_model.h"

namespace tokenscope::capture::cupti {

std::int64_t iteration_floor_ns(const kernels::IterationPlan& plan, const trace::GpuInfo& gpu) {
    kernels::Roofline roof = roofline_of(gpu);
    // A GPU without a matching preset has no peaks: the floor is unknown, not zero work.
    if (!(roof.peak_flops > 0.0) || !(roof.peak_bandwidth > 0.0)) return 0;
    // The floor never uses the link, but the cost model insists on one.
    if (!(roof.link_bandwidth > 0.0)) roof.link_bandwidth = 1.0;
    return kernels::CostModel(roof).floor_ns(plan);
}

std::vector<trace::Step> token_steps(const std::vector<std::vector<std::int64_t>>& emission_ns,
                                     std::int64_t arrival_ns,
                                     const std::vector<IterationTokens>& iterations) {
    // Token index -> its iteration's floor, or 0 when it is not the iteration's first.
    std::vector<std::int64_t> floors;
    for (const auto& it : iterations)
        for (std::int32_t j = 0; j < it.tokens_emitted; ++j)
            floors.push_back(j == 0 ? it.floor_ns : 0);
    std::vector<trace::Step> steps;
    for (std::size_t r = 0; r < emission_ns.size(); ++r) {
        const auto& emitted = emission_ns[r];
        for (std::size_t j = 0; j < emitted.size(); ++j) {
            trace::Step s;
            s.request = static_cast<std::int64_t>(r + 1);
            s.index = static_cast<std::int32_t>(j);
            s.phase = j == 0 ? trace::Phase::Prefill : trace::Phase::Decode;
            s.start_ns = j == 0 ? arrival_ns : emitted[j - 1];
            s.end_ns = emitted[j];
            s.floor_ns = j < floors.size() ? floors[j] : 0;
            steps.push_back(s);
        }
    }
    return steps;
}

double median_tpot_ns(const std::vector<std::vector<std::int64_t>>& emission_ns) {
    std::vector<double> tpots;
    for (const auto& e : emission_ns)
        if (e.size() >= 2)
            tpots.push_back(static_cast<double>(e.back() - e.front()) /
                            static_cast<double>(e.size() - 1));
    if (tpots.empty()) return 0.0;
    std::sort(tpots.begin(), tpots.end());
    const std::size_t n = tpots.size();
    return n % 2 == 1 ? tpots[n / 2] : (tpots[n / 2 - 1] + tpots[n / 2]) / 2.0;
}

}  // namespace tokenscope::capture::cupti
