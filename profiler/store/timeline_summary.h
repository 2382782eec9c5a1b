#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "trace/activity.h"

namespace tokenscope::store {

// One bin of a lane's timeline summary (DESIGN.md section 17, docs/file-format.md): what
// a timeline needs to paint a stretch of time too long for its activities, without them.
// Level L of a lane has bins of 2^(width_log2 + 3L) ns; bin b covers [b·width, (b+1)·width).
struct SummaryBin {
    std::int64_t bin = 0;
    // Consecutive bins this record stands for (bin .. bin + repeat - 1), all alike: one
    // activity covering them whole. Readers return repeat 1.
    std::int64_t repeat = 1;
    // Activity time inside the bin, summed over its activities: the busy time where they do
    // not overlap (streams, copy engines); nested host ranges count once each, so it can
    // exceed the width there.
    std::int64_t busy_ns = 0;
    std::int64_t count = 0;  // activities that start in the bin
    // The longest activity overlapping the bin (its whole duration) and its name.
    std::uint32_t longest_name = 0;
    std::int64_t longest_ns = 0;
    // The name with the most time in the bin, and that time. Exact where activities do not
    // overlap and arrive in start order; elsewhere (nested ranges, late arrivals merged by
    // the reader, a bin of over 64 names) the larger of the partial bins' dominant names.
    std::uint32_t dominant_name = 0;
    std::int64_t dominant_ns = 0;

    bool operator==(const SummaryBin&) const = default;
};

// A level of a lane's summary: its bins are 2^(width_log2 + kSummaryLevelShift · level) ns.
struct SummaryLevel {
    int level = 0;
    int width_log2 = 0;  // the lane's finest width, log2 ns
    int bin_log2() const;
    bool operator==(const SummaryLevel&) const = default;
};

// Each level's bins are this many times (2^kSummaryLevelShift) wider than the level below.
inline constexpr int kSummaryLevelShift = 3;

inline int SummaryLevel::bin_log2() const {
    return width_log2 + kSummaryLevelShift * level;
}

namespace detail {

// The finest bin width (log2 ns) for a lane whose first activities are `count` starts
// spread over `span_ns`: about 32 activities a bin, 2^10 ns (1 µs) to 2^40 ns (18 min).
int summary_width_log2(std::int64_t span_ns, std::int64_t count);
// Levels from width 2^width_log2 up by kSummaryLevelShift until a bin is 2^46 ns (~20 h).
int summary_level_count(int width_log2);

// Folds one lane's activities into its summary levels as they come, in one pass with
// memory bounded by the levels (one open bin each, and the activities still running past
// it). Activities in start order give each level's bins in bin order, one record a bin,
// and a run of whole bins under the same activities as one record (a 10 s prefill range
// is three records, not ten thousand). A late activity (starting before an open bin)
// gets records of its own, which readers merge. Finished bins go to the sink.
class LaneSummarizer {
  public:
    using Sink = std::function<void(int level, const SummaryBin&)>;

    LaneSummarizer(int width_log2, Sink sink);

    void add(const trace::Activity& a);
    // False when an activity starting at `start_ns` would be late here (it starts before
    // the open level-0 bin).
    bool accepts(std::int64_t start_ns) const {
        return !levels_.front().used || (start_ns >> width_log2_) >= levels_.front().bin;
    }
    // Emits every open bin and running activity; the summarizer may be used on afterwards.
    void finish();
    int width_log2() const { return width_log2_; }
    int levels() const { return static_cast<int>(levels_.size()); }

  private:
    using Names = std::vector<std::pair<std::uint32_t, std::int64_t>>;  // time per name
    // What a finished bin of the level below brings to a bin.
    struct Part {
        std::int64_t busy_ns = 0;
        std::int64_t count = 0;
        std::uint32_t longest_name = 0;
        std::int64_t longest_ns = 0;
        const Names* names = nullptr;
    };
    // An activity (or a run of whole bins below) running on past the open bin.
    struct Span {
        std::int64_t t0, t1;
        std::uint32_t name;
        std::int64_t longest_ns;
    };
    struct Level {
        bool used = false;  // a bin is open
        bool has_longest = false;
        std::int64_t bin = 0;
        SummaryBin totals;
        Names names;
        std::vector<Span> running;
    };

    int shift(int level) const { return width_log2_ + kSummaryLevelShift * level; }
    void add_span(int level, const Span& span, std::int64_t count);
    void add_part(int level, std::int64_t bin, const Part& part);
    void advance(int level, std::int64_t bin);
    void open(Level& l, std::int64_t bin);
    void take(Level& l, std::int64_t busy, std::uint32_t name, std::int64_t longest_ns,
              std::uint32_t longest_name);
    void close(int level);
    void emit_run(int level, std::int64_t first, std::int64_t last);
    void late_span(int level, const Span& span, std::int64_t count);

    int width_log2_;
    Sink sink_;
    std::vector<Level> levels_;
};

}  // namespace detail
}  // namespace tokenscope::store
