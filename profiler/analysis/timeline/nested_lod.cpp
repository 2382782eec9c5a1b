#include "nested_lod.h"

#include <algorithm>

namespace tokenscope::analysis {

NestedLod::NestedLod(double ns_per_px, int rows, double min_px)
    : wide_ns_(TimelineLod::wide_ns(ns_per_px, min_px)),
      open_(static_cast<std::size_t>(std::max(1, rows)), LodItem{0, 0, 0, 0}) {}

void NestedLod::flush(LodItem& block) {
    if (block.count > 0) out_.push_back(block);
    block.count = 0;
}

void NestedLod::add(std::size_t index, std::int64_t start_ns, std::int64_t end_ns, int depth) {
    depth = std::clamp(depth, 0, static_cast<int>(open_.size()) - 1);
    LodItem& block = open_[static_cast<std::size_t>(depth)];
    if (end_ns - start_ns >= wide_ns_) {
        flush(block);
        out_.push_back(LodItem{start_ns, end_ns, index, 1, depth});
    } else if (block.count > 0 && start_ns < block.end_ns + wide_ns_) {
        block.end_ns = std::max(block.end_ns, end_ns);
        ++block.count;
    } else {
        flush(block);
        block = LodItem{start_ns, end_ns, index, 1, depth};
    }
}

std::vector<LodItem> NestedLod::finish() {
    for (LodItem& block : open_) flush(block);
    return std::move(out_);
}

}  // namespace tokenscope::analysis
