#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "activity.h"

namespace tokenscope::trace {

// How many activities a run holds of each kind and copy direction, with their bytes: what
// `info` reports. A summarised file keeps them per lane (store, schema 12: activity_total),
// so they are known without reading the activities; in memory they are counted.
struct ActivityTotals {
    struct Cell {
        std::int64_t count = 0;
        std::uint64_t bytes = 0;  // wraps as uint64 does
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
        Cell& c = cell(a.kind, a.copy);
        ++c.count;
        c.bytes += a.bytes;
    }
    void add(const ActivityTotals& other) {
        for (std::size_t k = 0; k < kActivityKindCount; ++k)
            for (std::size_t c = 0; c < kCopyKindCount; ++c) {
                cells[k][c].count += other.cells[k][c].count;
                cells[k][c].bytes += other.cells[k][c].bytes;
            }
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
    bool operator==(const ActivityTotals&) const = default;
};

inline ActivityTotals count_activities(std::span<const Activity> activities) {
    ActivityTotals t;
    for (const Activity& a : activities) t.add(a);
    return t;
}

}  // namespace tokenscope::trace
