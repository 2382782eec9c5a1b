#include "collective_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "trace/collective.h"

namespace tokenscope::import::merge {
namespace {

// A rank's profiler may start a few collectives earlier or later than another's:
// the k-th end of one is tried against the (k+d)-th of the other for |d| up to this.
constexpr std::ptrdiff_t kMaxShift = 8;

std::int64_t median(std::vector<std::int64_t> v) {
    auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

// Signed differences (ref - other - offset) of every other end that has a ref end
// of its name within the tolerance.
std::vector<std::int64_t> pair_misfits(const CollectiveEnds& ref, const CollectiveEnds& other,
                                       std::int64_t offset) {
    std::vector<std::int64_t> out;
    for (const auto& [name, ends] : other) {
        auto it = ref.find(name);
        if (it == ref.end()) continue;
        for (std::int64_t e : ends) {
            const std::int64_t t = e + offset;
            auto lo = std::lower_bound(it->second.begin(), it->second.end(), t);
            std::int64_t d = INT64_MAX;
            if (lo != it->second.end()) d = *lo - t;
            if (lo != it->second.begin() && t - *std::prev(lo) < std::llabs(d))
                d = *std::prev(lo) - t;
            if (d != INT64_MAX && std::llabs(d) <= kMatchToleranceNs) out.push_back(d);
        }
    }
    return out;
}

CollectiveFit summarize(const std::vector<std::int64_t>& misfits, std::int64_t offset) {
    CollectiveFit f;
    f.offset_ns = offset;
    f.matched = static_cast<std::int64_t>(misfits.size());
    double sum = 0;
    for (std::int64_t d : misfits) {
        sum += static_cast<double>(d) * static_cast<double>(d);
        f.max_ns = std::max(f.max_ns, std::fabs(static_cast<double>(d)));
    }
    f.rms_ns = misfits.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(misfits.size()));
    return f;
}

std::vector<std::int64_t> candidates(const CollectiveEnds& ref, const CollectiveEnds& other) {
    std::vector<std::int64_t> out;
    for (const auto& [name, ends] : other) {
        auto it = ref.find(name);
        if (it == ref.end()) continue;
        const auto& r = it->second;
        const auto n = static_cast<std::ptrdiff_t>(ends.size());
        const auto m = static_cast<std::ptrdiff_t>(r.size());
        for (std::ptrdiff_t d = -kMaxShift; d <= kMaxShift; ++d) {
            std::vector<std::int64_t> diffs;
            for (std::ptrdiff_t k = std::max<std::ptrdiff_t>(0, -d); k < m && k + d < n; ++k)
                diffs.push_back(r[static_cast<std::size_t>(k)] -
                                ends[static_cast<std::size_t>(k + d)]);
            if (!diffs.empty()) out.push_back(median(std::move(diffs)));
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace

CollectiveEnds collective_ends(const trace::RunData& run, const trace::StopToken& stop) {
    CollectiveEnds out;
    std::vector<signed char> is_collective(run.strings.size(), -1);
    trace::for_each_stoppable(run.activities, stop, [&](const trace::Activity& a) {
        if (a.kind != trace::ActivityKind::Kernel || a.name >= is_collective.size()) return;
        signed char& known = is_collective[a.name];
        if (known < 0) known = trace::is_collective_kernel(run.strings.str(a.name)) ? 1 : 0;
        if (known == 1) out[std::string(run.strings.str(a.name))].push_back(a.end_ns);
    });
    for (auto& [name, ends] : out) std::sort(ends.begin(), ends.end());
    return out;
}

CollectiveFit misfit_at(const CollectiveEnds& ref, const CollectiveEnds& other,
                        std::int64_t offset_ns) {
    return summarize(pair_misfits(ref, other, offset_ns), offset_ns);
}

CollectiveFit fit_collectives(const CollectiveEnds& ref, const CollectiveEnds& other,
                              const trace::StopToken& stop) {
    CollectiveFit best;
    for (std::int64_t c : candidates(ref, other)) {
        stop.throw_if_stopped();
        std::vector<std::int64_t> misfits = pair_misfits(ref, other, c);
        if (misfits.empty()) continue;
        // Refine to the median pair: robust against a stray pairing.
        const std::int64_t refined = c + median(misfits);
        CollectiveFit f = misfit_at(ref, other, refined);
        // Most pairs, then the smallest misfit; a loop so regular that an alignment one
        // iteration off fits as well is resolved towards the smaller offset.
        const bool better =
            f.matched != best.matched
                ? f.matched > best.matched
                : (f.rms_ns != best.rms_ns ? f.rms_ns < best.rms_ns
                                           : std::llabs(f.offset_ns) < std::llabs(best.offset_ns));
        if (better) best = f;
    }
    return best;
}

}  // namespace tokenscope::import::merge
