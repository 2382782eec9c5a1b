#include "sla_attainment.h"

#include <algorithm>
#include <limits>

namespace tokenscope::analysis {

bool meets_sla(const trace::Request& r, const SlaBounds& sla) {
    if (r.failed) return false;
    const std::int64_t ttft = r.first_token_ns - r.arrival_ns;
    if (sla.ttft_ns && ttft > *sla.ttft_ns) return false;
    if (sla.tpot_ns && r.output_len > 1) {
        // TPOT <= bound, compared exactly: (E2E - TTFT) <= bound * (output_len - 1).
        const std::int64_t decode = r.done_ns - r.first_token_ns;
        if (decode > *sla.tpot_ns * static_cast<std::int64_t>(r.output_len - 1)) return false;
    }
    return true;
}

Attainment sla_attainment(const std::vector<trace::Request>& requests, const SlaBounds& sla) {
    Attainment a;
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const auto& r : requests) {
        ++a.requests;
        if (meets_sla(r, sla)) ++a.met;
        first = std::min(first, r.arrival_ns);
        if (!r.failed) last = std::max(last, r.done_ns);
    }
    if (a.requests > 0) a.fraction = static_cast<double>(a.met) / static_cast<double>(a.requests);
    if (a.met > 0 && last > first)
        a.goodput = static_cast<double>(a.met) / (static_cast<double>(last - first) / 1e9);
    return a;
}

}  // namespace tokenscope::analysis
