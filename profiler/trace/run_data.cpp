#include "run_data.h"

#include <algorithm>

namespace tokenscope::trace {

void RunData::count_diagnostic(std::string_view name, Severity severity, double value,
                               std::string_view text) {
    for (auto& d : diagnostics) {
        if (d.name == name) {
            d.value += value;
            if (severity > d.severity) d.severity = severity;
            return;
        }
    }
    diagnostics.push_back(Diagnostic{std::string(name), severity, value, std::string(text)});
}

const KernelLaunch* RunData::launch_for(std::uint32_t correlation) const {
    if (correlation == 0) return nullptr;
    auto it =
        std::lower_bound(launches.begin(), launches.end(), correlation,
                         [](const KernelLaunch& l, std::uint32_t c) { return l.correlation < c; });
    return it != launches.end() && it->correlation == correlation ? &*it : nullptr;
}

std::size_t RunData::sort_launches() {
    const std::size_t before = launches.size();
    std::erase_if(launches, [](const KernelLaunch& l) { return l.correlation == 0; });
    auto by_correlation = [](const KernelLaunch& a, const KernelLaunch& b) {
        return a.correlation < b.correlation;
    };
    if (!std::is_sorted(launches.begin(), launches.end(), by_correlation))
        std::stable_sort(launches.begin(), launches.end(), by_correlation);
    auto same = [](const KernelLaunch& a, const KernelLaunch& b) {
        return a.correlation == b.correlation;
    };
    launches.erase(std::unique(launches.begin(), launches.end(), same), launches.end());
    return before - launches.size();
}

}  // namespace tokenscope::trace
