#include "graph_table.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <tuple>

namespace tokenscope::trace {

void GraphTable::add(std::uint16_t lane, std::int64_t start_ns, const GraphNode& node) {
    // finish() freed the map; adding after it rebuilds the map from the nodes.
    if (index_.size() != nodes_.size()) {
        index_.clear();
        for (std::size_t i = 0; i < nodes_.size(); ++i)
            index_.emplace(nodes_[i], static_cast<std::uint32_t>(i));
    }
    auto [it, inserted] = index_.try_emplace(node, static_cast<std::uint32_t>(nodes_.size()));
    if (inserted) {
        if (nodes_.size() == std::numeric_limits<std::uint32_t>::max())
            throw std::length_error("more than 2^32-1 distinct CUDA graph nodes");
        nodes_.push_back(node);
    }
    if (finished_ && !entries_.empty() &&
        std::tie(entries_.back().lane, entries_.back().start_ns) >= std::tie(lane, start_ns))
        finished_ = false;
    entries_.push_back(Entry{start_ns, it->second, lane});
}

std::size_t GraphTable::finish() {
    const std::size_t before = entries_.size();
    if (!finished_) {
        auto key = [](const Entry& e) { return std::tie(e.lane, e.start_ns); };
        auto less = [&](const Entry& a, const Entry& b) { return key(a) < key(b); };
        // Stable, so the first added of a repeated key stays in front.
        if (!std::is_sorted(entries_.begin(), entries_.end(), less))
            std::stable_sort(entries_.begin(), entries_.end(), less);
        auto same = [&](const Entry& a, const Entry& b) { return key(a) == key(b); };
        entries_.erase(std::unique(entries_.begin(), entries_.end(), same), entries_.end());
        finished_ = true;
    }
    entries_.shrink_to_fit();
    nodes_.shrink_to_fit();
    decltype(index_)().swap(index_);
    return before - entries_.size();
}

void GraphTable::clear() {
    decltype(entries_)().swap(entries_);
    decltype(nodes_)().swap(nodes_);
    decltype(index_)().swap(index_);
    finished_ = true;
}

GraphActivity GraphTable::at(std::size_t i) const {
    const Entry& e = entries_.at(i);
    return {e.lane, e.start_ns, nodes_[e.node]};
}

std::optional<GraphNode> GraphTable::find(std::uint16_t lane, std::int64_t start_ns) const {
    if (!finished_) {
        auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
            return e.lane == lane && e.start_ns == start_ns;
        });
        if (it == entries_.end()) return std::nullopt;
        return nodes_[it->node];
    }
    auto it =
        std::lower_bound(entries_.begin(), entries_.end(), std::make_pair(lane, start_ns),
                         [](const Entry& e, const std::pair<std::uint16_t, std::int64_t>& k) {
                             return std::tie(e.lane, e.start_ns) < std::tie(k.first, k.second);
                         });
    if (it == entries_.end() || it->lane != lane || it->start_ns != start_ns) return std::nullopt;
    return nodes_[it->node];
}

std::size_t GraphTable::memory_bytes() const {
    std::size_t bytes = entries_.capacity() * sizeof(Entry) + nodes_.capacity() * sizeof(GraphNode);
    if (!index_.empty()) {
        const std::size_t node = sizeof(void*) + sizeof(GraphNode) + sizeof(std::uint32_t) + 8;
        bytes += index_.size() * node + index_.bucket_count() * sizeof(void*);
    }
    return bytes;
}

bool GraphTable::operator==(const GraphTable& other) const {
    if (size() != other.size()) return false;
    for (std::size_t i = 0; i < size(); ++i)
        if (at(i) != other.at(i)) return false;
    return true;
}

}  // namespace tokenscope::trace
