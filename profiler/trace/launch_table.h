#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <unordered_map>
#include <vector>

#include "kernel_launch.h"

namespace tokenscope::trace {

// The launch facts of a run's kernels, keyed by correlation id. A real capture has
// a launch per kernel (a third of all activities) but a decode uses only a handful
// of launch configurations, so each configuration (grid, block, shared memory,
// registers) is stored once and a kernel costs 8 bytes: its correlation and the
// index of its configuration. That keeps a 10M-activity run inside the GUI's
// 48 bytes per activity.
//
// Build with add(), then finish(): it sorts by correlation, which find() relies on
// for its binary search, and frees the map used to intern configurations.
class LaunchTable {
  public:
    // Visits launches in table order (correlation order once finished), by value:
    // a KernelLaunch is assembled from the entry and its configuration.
    class const_iterator {
      public:
        using iterator_category = std::input_iterator_tag;
        using value_type = KernelLaunch;
        using difference_type = std::ptrdiff_t;
        using reference = KernelLaunch;
        using pointer = void;

        const_iterator() = default;
        const_iterator(const LaunchTable* table, std::size_t i) : table_(table), i_(i) {}
        KernelLaunch operator*() const { return table_->at(i_); }
        const_iterator& operator++() {
            ++i_;
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator old = *this;
            ++i_;
            return old;
        }
        bool operator==(const const_iterator& o) const { return i_ == o.i_; }

      private:
        const LaunchTable* table_ = nullptr;
        std::size_t i_ = 0;
    };

    LaunchTable() = default;
    // For tests and hand-built runs; the table is left unfinished.
    LaunchTable(std::initializer_list<KernelLaunch> launches);

    // Appends a launch (any correlation, 0 included: finish() drops it).
    void add(const KernelLaunch& launch);
    // Interns a configuration (its correlation is ignored) and returns its index for
    // add_indexed: a reader that has the configurations apart from the launches, as
    // the store does, adds millions of launches without hashing each one.
    std::uint32_t add_config(const KernelLaunch& config);
    // Appends a launch of configuration `config` (an index add_config returned);
    // throws std::out_of_range for another index.
    void add_indexed(std::uint32_t correlation, std::uint32_t config);
    void reserve(std::size_t kernels) { entries_.reserve(kernels); }
    // Sorts by correlation, dropping launches without one and all but the first
    // added of a repeated one; returns how many were dropped, for the caller to
    // count as a diagnostic. Idempotent; cheap when already sorted.
    std::size_t finish();
    void clear();
    // Drops the launches but keeps the configurations, so a reader streaming a file's
    // launch chunks decodes each into the same table without interning them again.
    void clear_launches() {
        entries_.clear();
        finished_ = true;
    }

    // The launch of the kernel with this correlation id; nullopt when unknown or 0.
    // Before finish() it scans, so it is still right, only slow.
    std::optional<KernelLaunch> find(std::uint32_t correlation) const;
    // The i-th launch in table order (i < size()).
    KernelLaunch at(std::size_t i) const;

    std::size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    std::size_t configuration_count() const { return configs_.size(); }
    // Heap bytes held, capacity included (the interning map only before finish()).
    std::size_t memory_bytes() const;

    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, entries_.size()}; }

    // Same launches in the same order; how they are interned does not matter.
    bool operator==(const LaunchTable& other) const;

  private:
    struct Entry {
        std::uint32_t correlation;
        std::uint32_t config;
    };
    struct ConfigHash {
        std::size_t operator()(const KernelLaunch& c) const;
    };

    std::uint32_t intern(const KernelLaunch& config);
    // After finish() dropped launches: forgets configurations only they used.
    void drop_unused_configs();

    std::vector<Entry> entries_;
    std::vector<KernelLaunch> configs_;  // correlation 0: configurations only
    std::unordered_map<KernelLaunch, std::uint32_t, ConfigHash> index_;  // empty once finished
    // Entries sorted, unique and non-zero: what finish() makes and find() searches.
    bool finished_ = true;
};

}  // namespace tokenscope::trace
