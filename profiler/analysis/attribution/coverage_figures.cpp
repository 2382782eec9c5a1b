#include "coverage_figures.h"

#include <algorithm>

#include "coverage.h"

namespace tokenscope::analysis {

using trace::ActivityKind;
using trace::CopyKind;

void UnionAttribution::add(const StepAttribution& a) {
    total_ns += a.end_ns - a.start_ns;
    for (std::size_t c = 0; c < kCategoryCount; ++c) {
        assigned[c] += a.assigned[c];
        hidden[c] += a.hidden[c];
    }
}

std::vector<std::pair<std::int64_t, std::int64_t>> overlapping_iteration_union(
    const std::vector<trace::Step>& steps) {
    std::vector<std::pair<std::int64_t, std::int64_t>> windows;
    for (const auto& st : steps) {
        if (!st.is_iteration()) return {};
        windows.emplace_back(st.start_ns, st.end_ns);
    }
    std::sort(windows.begin(), windows.end());
    bool overlap = false;
    for (std::size_t i = 1; i < windows.size(); ++i)
        overlap |= windows[i].first < windows[i - 1].second;
    if (!overlap) return {};
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    std::int64_t t0 = windows.front().first, t1 = windows.front().second;
    for (const auto& [a, b] : windows) {
        if (a > t1) {
            out.emplace_back(t0, t1);
            t0 = a;
        }
        t1 = std::max(t1, b);
    }
    out.emplace_back(t0, t1);
    return out;
}

// Byte sums are exact in integers; as doubles they stay exact below 2^53 bytes (8 PiB).
void add_activity_figures(CoverageFigures& f, const trace::ActivityTotals& totals) {
    f.p2p_bytes += static_cast<double>(totals.cell(ActivityKind::Memcpy, CopyKind::P2P).bytes);
    std::uint64_t gpu = totals.cell(ActivityKind::Memcpy, CopyKind::D2D).bytes, kernel = 0;
    for (std::size_t c = 0; c < trace::kCopyKindCount; ++c) {
        kernel += totals.cells[static_cast<std::size_t>(ActivityKind::Kernel)][c].bytes;
        gpu += totals.cells[static_cast<std::size_t>(ActivityKind::Memset)][c].bytes;
    }
    f.gpu_work_bytes += static_cast<double>(gpu + kernel);
    f.kernel_bytes = f.kernel_bytes || kernel > 0;
    f.any_activity = f.any_activity || totals.activities() > 0;
}

CoverageFigures coverage_figures(const trace::RunData& run, const Coverage& coverage,
                                 const trace::StopToken& stop) {
    CoverageFigures f;
    const auto pieces = overlapping_iteration_union(run.steps);
    if (!pieces.empty()) {
        f.iterations.emplace();
        for (const auto& [t0, t1] : pieces) f.iterations->add(coverage.attribute(t0, t1));
    }
    stop.throw_if_stopped();
    f.nvlink_active_ns = coverage.active_ns(category_bit(Category::Nvlink));
    f.gpu_busy_ns =
        coverage.active_ns(category_bit(Category::GpuCompute) | category_bit(Category::GpuMemory));
    add_activity_figures(f, run.activity_totals());
    stop.throw_if_stopped();
    return f;
}

}  // namespace tokenscope::analysis
