#include "launch_table.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace tokenscope::trace {

LaunchTable::LaunchTable(std::initializer_list<KernelLaunch> launches) {
    entries_.reserve(launches.size());
    for (const KernelLaunch& l : launches) add(l);
}

std::size_t LaunchTable::ConfigHash::operator()(const KernelLaunch& c) const {
    // FNV-1a over the fields: a handful of keys, so quality matters less than speed.
    std::uint64_t h = 14695981039346656037ULL;
    auto mix = [&h](std::uint32_t v) {
        h ^= v;
        h *= 1099511628211ULL;
    };
    for (std::uint32_t v : c.grid) mix(v);
    for (std::uint32_t v : c.block) mix(v);
    mix(c.shared_bytes);
    mix(c.registers_per_thread);
    return static_cast<std::size_t>(h);
}

std::uint32_t LaunchTable::intern(const KernelLaunch& config) {
    // finish() freed the map; adding after it rebuilds the map from the configurations.
    if (index_.size() != configs_.size()) {
        index_.clear();
        for (std::size_t i = 0; i < configs_.size(); ++i)
            index_.emplace(configs_[i], static_cast<std::uint32_t>(i));
    }
    auto [it, inserted] = index_.try_emplace(config, static_cast<std::uint32_t>(configs_.size()));
    if (inserted) {
        if (configs_.size() == std::numeric_limits<std::uint32_t>::max())
            throw std::length_error("more than 2^32-1 distinct kernel launch configurations");
        configs_.push_back(config);
    }
    return it->second;
}

std::uint32_t LaunchTable::add_config(const KernelLaunch& config) {
    KernelLaunch bare = config;
    bare.correlation = 0;
    return intern(bare);
}

void LaunchTable::add_indexed(std::uint32_t correlation, std::uint32_t config) {
    if (config >= configs_.size())
        throw std::out_of_range("kernel launch configuration " + std::to_string(config) + " of " +
                                std::to_string(configs_.size()));
    if (finished_ && !entries_.empty() && entries_.back().correlation >= correlation)
        finished_ = false;
    if (correlation == 0) finished_ = false;
    entries_.push_back(Entry{correlation, config});
}

void LaunchTable::add(const KernelLaunch& launch) {
    add_indexed(launch.correlation, add_config(launch));
}

void LaunchTable::drop_unused_configs() {
    constexpr std::uint32_t kUnused = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> renumber(configs_.size(), kUnused);
    std::vector<KernelLaunch> kept;
    for (Entry& e : entries_) {
        if (renumber[e.config] == kUnused) {
            renumber[e.config] = static_cast<std::uint32_t>(kept.size());
            kept.push_back(configs_[e.config]);
        }
        e.config = renumber[e.config];
    }
    configs_ = std::move(kept);
    index_.clear();  // stale numbering; intern() rebuilds it if more are added
}

std::size_t LaunchTable::finish() {
    const std::size_t before = entries_.size();
    if (!finished_) {
        std::erase_if(entries_, [](const Entry& e) { return e.correlation == 0; });
        auto by_correlation = [](const Entry& a, const Entry& b) {
            return a.correlation < b.correlation;
        };
        // Stable, so the first added of a repeated correlation stays in front.
        if (!std::is_sorted(entries_.begin(), entries_.end(), by_correlation))
            std::stable_sort(entries_.begin(), entries_.end(), by_correlation);
        auto same = [](const Entry& a, const Entry& b) { return a.correlation == b.correlation; };
        entries_.erase(std::unique(entries_.begin(), entries_.end(), same), entries_.end());
        if (entries_.size() != before) drop_unused_configs();
        finished_ = true;
    }
    // The table stays resident for the life of the run: no spare capacity, no map.
    entries_.shrink_to_fit();
    configs_.shrink_to_fit();
    decltype(index_)().swap(index_);
    return before - entries_.size();
}

void LaunchTable::clear() {
    decltype(entries_)().swap(entries_);
    decltype(configs_)().swap(configs_);
    decltype(index_)().swap(index_);
    finished_ = true;
}

KernelLaunch LaunchTable::at(std::size_t i) const {
    const Entry& e = entries_.at(i);
    KernelLaunch l = configs_[e.config];
    l.correlation = e.correlation;
    return l;
}

std::optional<KernelLaunch> LaunchTable::find(std::uint32_t correlation) const {
    if (correlation == 0) return std::nullopt;
    if (!finished_) {
        auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&](const Entry& e) { return e.correlation == correlation; });
        if (it == entries_.end()) return std::nullopt;
        return at(static_cast<std::size_t>(it - entries_.begin()));
    }
    auto it = std::lower_bound(entries_.begin(), entries_.end(), correlation,
                               [](const Entry& e, std::uint32_t c) { return e.correlation < c; });
    if (it == entries_.end() || it->correlation != correlation) return std::nullopt;
    return at(static_cast<std::size_t>(it - entries_.begin()));
}

std::size_t LaunchTable::memory_bytes() const {
    std::size_t bytes =
        entries_.capacity() * sizeof(Entry) + configs_.capacity() * sizeof(KernelLaunch);
    // An empty map allocates nothing (its one bucket is inline); a filled one holds a
    // node per configuration plus the bucket array, close enough to libstdc++'s layout.
    if (!index_.empty()) {
        const std::size_t node = sizeof(void*) + sizeof(KernelLaunch) + sizeof(std::uint32_t) + 8;
        bytes += index_.size() * node + index_.bucket_count() * sizeof(void*);
    }
    return bytes;
}

bool LaunchTable::operator==(const LaunchTable& other) const {
    if (size() != other.size()) return false;
    for (std::size_t i = 0; i < size(); ++i)
        if (at(i) != other.at(i)) return false;
    return true;
}

}  // namespace tokenscope::trace
