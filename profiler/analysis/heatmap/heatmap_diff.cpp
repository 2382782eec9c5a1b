#include "heatmap_diff.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

namespace tokenscope::analysis {
namespace {

std::optional<double> merge_min(std::optional<double> x, std::optional<double> y) {
    if (!x) return y;
    if (!y) return x;
    return std::min(*x, *y);
}

std::optional<double> merge_max(std::optional<double> x, std::optional<double> y) {
    if (!x) return y;
    if (!y) return x;
    return std::max(*x, *y);
}

}  // namespace

HeatmapDiff diff_heatmaps(const Heatmap& a, const Heatmap& b) {
    HeatmapDiff d;
    std::unordered_map<std::string_view, std::size_t> row_of;
    for (std::size_t r = 0; r < a.row_count(); ++r) {
        row_of.emplace(a.row_labels[r], d.row_labels.size());
        d.row_labels.push_back(a.row_labels[r]);
        d.row_in_a.emplace_back(r);
        d.row_in_b.emplace_back();
    }
    for (std::size_t r = 0; r < b.row_count(); ++r) {
        auto [it, added] = row_of.emplace(b.row_labels[r], d.row_labels.size());
        if (added) {
            d.row_labels.push_back(b.row_labels[r]);
            d.row_in_a.emplace_back();
            d.row_in_b.emplace_back(r);
        } else {
            d.row_in_b[it->second] = r;
        }
    }
    d.columns = std::max(a.column_count(), b.column_count());
    d.delta.assign(d.row_labels.size() * d.columns, std::nullopt);
    for (std::size_t r = 0; r < d.row_labels.size(); ++r) {
        if (!d.row_in_a[r] || !d.row_in_b[r]) continue;
        const std::size_t common = std::min(a.column_count(), b.column_count());
        for (std::size_t c = 0; c < common; ++c) {
            const auto& pa = a.at(*d.row_in_a[r], c).value;
            const auto& pb = b.at(*d.row_in_b[r], c).value;
            if (!pa || !pb) continue;
            d.delta[r * d.columns + c] = *pb - *pa;
            d.range = std::max(d.range, std::abs(*pb - *pa));
        }
    }
    d.shared_min = merge_min(a.min_value, b.min_value);
    d.shared_max = merge_max(a.max_value, b.max_value);
    return d;
}

}  // namespace tokenscope::analysis
