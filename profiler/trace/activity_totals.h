#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>

#include "activity.h"

namespace tokenscope::trace {

// How many activities a run holds of each kind and copy direction, with their bytes and
// time extent: what `info` reports. A summarised file keeps them per lane (store, schema 12:
// activity_total), so they are known without reading the activities; in memory they are counted.
struct ActivityTotals {
    struct Cell {
        std::int64_t count = 0;
        std::uint64_t bytes = 0;  // wraps as uint64 does
        // The earliest start and the latest end of the cell's activities (sentinels when
        // it has none): where a run's time begins, without reading it.
        std::int64_t first_start_ns = std::numeric_limits<std::int64_t>::max();
        std::int64_t last_end_ns = std::numeric_limits<std::int64_t>::min();
        void add(const Cell& other) {
            count += other.count;
            bytes += other.bytes;
            first_start_ns = std::min(first_start_ns, other.first_start_ns);
            last_end_ns = std::max(last_end_ns, other.last_end_ns);
        }
        bool operator==(const Cell&) const = default;
    };
    // By activity kind, then copy kind (None for all but copies).
    std::array<std::array<Cell, kCopyKindCount>, kActivityKindCount> cells{};

    Cell& cell(ActivityKind kind, CopyKind copy) {
        return cells[static_cast<std::size_t>(kind)][static_cast<std::size_t>(copy)];
    }
    const Cell& cell(ActivityKind kind, CopyKind copy) const {
        return cells[static_cast<std::size_t>(kind)][static_cast<std::size_t>(copy)];
    }
    void add(const Activity& a) {
        if (static_cast<std::size_t>(a.kind) >= kActivityKindCount ||
            static_cast<std::size_t>(a.copy) >= kCopyKindCount)
            return;
        cell(a.kind, a.copy).add({1, a.bytes, a.start_ns, a.end_ns});
    }
    void add(const ActivityTotals& other) {
        for (std::size_t k = 0; k < kActivityKindCount; ++k)
            for (std::size_t c = 0; c < kCopyKindCount; ++c) cells[k][c].add(other.cells[k][c]);
    }
    // Activities of a kind, whatever their copy kind.
    std::int64_t count(ActivityKind kind) const {
        std::int64_t n = 0;
        for (const Cell& c : cells[static_cast<std::size_t>(kind)]) n += c.count;
        return n;
    }
    std::int64_t activities() const {
        std::int64_t n = 0;
        for (std::size_t k = 0; k < kActivityKindCount; ++k) n += count(ActivityKind(k));
        return n;
    }
    // The earliest start of any activity; none without activities.
    std::optional<std::int64_t> first_start_ns() const {
        std::optional<std::int64_t> first;
        for (const auto& kind : cells)
            for (const Cell& c : kind)
                if (c.count > 0 && (!first || c.first_start_ns < *first)) first = c.first_start_ns;
        return first;
    }
    bool operator==(const ActivityTotals&) const = default;
};

inline ActivityTotals count_activities(std::span<const Activity> activities) {
    ActivityTotals t;
    for (const Activity& a : activities) t.add(a);
    return t;
}

}  // namespace tokenscope::trace
