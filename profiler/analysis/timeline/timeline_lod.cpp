#include "timeline_lod.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace tokenscope::analysis {
namespace {
constexpr std::int64_t kLowest = std::numeric_limits<std::int64_t>::min();
}

TimelineLod::TimelineLod(std::span<const trace::Activity> lane) : lane_(lane) {
    const std::size_t blocks = (lane_.size() + kLeaf - 1) / kLeaf;
    while (leaves_ < blocks) leaves_ *= 2;
    end_tree_ = build_tree(false);
    duration_tree_ = build_tree(true);
}

std::vector<std::int64_t> TimelineLod::build_tree(bool durations) const {
    std::vector<std::int64_t> tree(2 * leaves_, kLowest);
    for (std::size_t i = 0; i < lane_.size(); ++i) {
        std::int64_t& leaf = tree[leaves_ + i / kLeaf];
        leaf = std::max(leaf, key(i, durations));
    }
    for (std::size_t v = leaves_ - 1; v >= 1; --v) tree[v] = std::max(tree[2 * v], tree[2 * v + 1]);
    return tree;
}

std::size_t TimelineLod::first_greater(const std::vector<std::int64_t>& tree, bool durations,
                                       std::size_t i, std::int64_t x) const {
    const std::size_t n = lane_.size();
    if (i >= n) return n;
    const std::size_t block_end = std::min(n, (i / kLeaf + 1) * kLeaf);
    for (std::size_t j = i; j < block_end; ++j)
        if (key(j, durations) > x) return j;
    std::size_t v = leaves_ + i / kLeaf + 1;
    if (v >= 2 * leaves_) return n;
    // Climb to the first subtree to the right holding a value above x ...
    while (tree[v] <= x) {
        while (v & 1) v >>= 1;  // a right child: its right neighbour is the parent's
        if (v == 0) return n;   // climbed past the root: nothing to the right
        ++v;
    }
    // ... then descend to its leftmost such leaf, and scan that block.
    while (v < leaves_) v = tree[2 * v] > x ? 2 * v : 2 * v + 1;
    const std::size_t start = (v - leaves_) * kLeaf;
    for (std::size_t j = start; j < std::min(n, start + kLeaf); ++j)
        if (key(j, durations) > x) return j;
    return n;  // unreachable: the leaf's maximum came from this block
}

std::int64_t TimelineLod::max_end(std::size_t i, std::size_t j) const {
    std::int64_t best = kLowest;
    // Partial blocks at both ends are scanned; whole blocks come from the tree.
    const std::size_t first_full = (i + kLeaf - 1) / kLeaf, last_full = j / kLeaf;
    if (first_full >= last_full) {
        for (std::size_t k = i; k < j; ++k) best = std::max(best, lane_[k].end_ns);
        return best;
    }
    for (std::size_t k = i; k < first_full * kLeaf; ++k) best = std::max(best, lane_[k].end_ns);
    for (std::size_t k = last_full * kLeaf; k < j; ++k) best = std::max(best, lane_[k].end_ns);
    for (std::size_t l = first_full + leaves_, r = last_full + leaves_; l < r; l /= 2, r /= 2) {
        if (l & 1) best = std::max(best, end_tree_[l++]);
        if (r & 1) best = std::max(best, end_tree_[--r]);
    }
    return best;
}

std::size_t TimelineLod::first_start_at(std::size_t i, std::int64_t t) const {
    auto it =
        std::lower_bound(lane_.begin() + static_cast<std::ptrdiff_t>(i), lane_.end(), t,
                         [](const trace::Activity& a, std::int64_t v) { return a.start_ns < v; });
    return static_cast<std::size_t>(it - lane_.begin());
}

std::size_t TimelineLod::fold_end(std::size_t first, std::int64_t wide_ns, std::int64_t t1,
                                  std::int64_t& block_end) const {
    std::size_t j = first + 1;
    std::size_t wide = first_greater(duration_tree_, true, j, wide_ns - 1);
    for (;;) {
        // Every narrow span starting within wide_ns of the block's end joins it at
        // once; spans starting after the view's end never join (they are not visible).
        const std::int64_t limit = std::min(block_end + wide_ns, t1);
        const std::size_t k = first_start_at(j, limit);
        if (k <= j) return j;
        if (wide < j) wide = first_greater(duration_tree_, true, j, wide_ns - 1);
        const std::size_t stop = std::min(k, wide);
        if (stop > j) {
            block_end = std::max(block_end, max_end(j, stop));
            j = stop;
        }
        if (stop < k) return j;  // a wide span ends the block and is drawn itself
    }
}

std::int64_t TimelineLod::wide_ns(double ns_per_px, double min_px) {
    if (!(ns_per_px > 0)) throw std::invalid_argument("timeline: ns per pixel must be positive");
    // Durations are whole ns, so "at least min_px wide" is duration >= ceil(min_px * ns/px).
    return static_cast<std::int64_t>(std::ceil(std::max(0.0, min_px) * ns_per_px));
}

std::vector<LodItem> TimelineLod::items(std::int64_t t0, std::int64_t t1, double ns_per_px,
                                        double min_px) const {
    const std::int64_t wide = wide_ns(ns_per_px, min_px);
    std::vector<LodItem> out;
    const std::size_t n = lane_.size();
    std::size_t i = first_greater(end_tree_, false, 0, t0);
    while (i < n && lane_[i].start_ns < t1) {
        const trace::Activity& a = lane_[i];
        if (a.end_ns <= t0) {  // ended before the view: jump to the next one still running
            i = first_greater(end_tree_, false, i + 1, t0);
            continue;
        }
        if (a.duration_ns() >= wide) {
            out.push_back({a.start_ns, a.end_ns, i, 1});
            ++i;
            continue;
        }
        std::int64_t block_end = a.end_ns;
        const std::size_t next = fold_end(i, wide, t1, block_end);
        out.push_back({a.start_ns, block_end, i, next - i});
        i = next;
    }
    return out;
}

}  // namespace tokenscope::analysis
