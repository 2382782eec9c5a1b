#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "histogram_writer.h"
#include "statement.h"
#include "timeline_summary.h"
#include "trace/activity.h"
#include "trace/activity_totals.h"

namespace tokenscope::store::detail {

class Connection;

// Writes a run's timeline summaries (summary_chunk rows) as its activity chunks are
// written: per lane up to kTracks LaneSummarizers, their records buffered per level and
// written in chunks of kChunkRecords, inside the writer's open transaction; when
// kMaxPendingRecords are buffered in all (a run of thousands of lanes), every buffer is
// written as it is. Memory stays bounded by that and by lanes x tracks x levels open bins,
// whatever the run's length.
//
// Activities of a lane mostly come in start order, but not all: long ranges arrive when
// they end, after everything they hold, and a last partial chunk of them may span the
// whole run. Each activity goes to the first track it is not late for, so such a stream
// of late ranges is summarised in order on a track of its own instead of as late records
// on every level; the reader merges the tracks' records of a bin.
class SummaryWriter {
  public:
    static constexpr std::size_t kChunkRecords = 1024;
    static constexpr std::size_t kTracks = 4;
    static constexpr std::size_t kMaxPendingRecords = 1 << 16;

    // width_log2 0: each lane's finest width comes from its first chunk's density.
    SummaryWriter(const Connection& conn, std::int64_t run_id, int width_log2 = 0);
    ~SummaryWriter();
    SummaryWriter(const SummaryWriter&) = delete;
    SummaryWriter& operator=(const SummaryWriter&) = delete;

    // One chunk of a lane's activities, sorted by start: into the summaries, the
    // duration histograms (HistogramWriter) and the lane's activity totals.
    void add_chunk(std::uint16_t lane, std::span<const trace::Activity> sorted);
    // Closes every bin, writes what is buffered (histograms and totals too) and marks the
    // run summarised.
    void finish();

  private:
    struct Lane {
        int width_log2 = 0;
        int levels = 0;
        std::vector<std::unique_ptr<LaneSummarizer>> tracks;
        std::vector<std::vector<SummaryBin>> pending;  // per level
        trace::ActivityTotals totals;
    };
    LaneSummarizer& track_for(Lane& lane, std::uint16_t index, std::int64_t start_ns);
    void write(std::uint16_t lane, int level);
    void write_all();
    void write_totals();

    const Connection& conn_;
    std::int64_t run_id_;
    int width_log2_;
    Statement insert_;
    HistogramWriter histograms_;
    std::vector<Lane> lanes_;
    std::size_t pending_records_ = 0;
    std::vector<std::uint8_t> blob_;
};

// Builds the summaries and histograms of a run from its stored activity chunks,
// replacing any partial ones (a migration, or a run whose writer never finished). Inside
// the caller's write transaction. `target` may be another file than `source` (a summary
// cache, summary_cache.h) that has the summary tables and a run table with `summarized`;
// `advance` hears of each chunk's activities.
void build_summaries(const Connection& source, const Connection& target, std::int64_t run_id,
                     const std::function<void(std::int64_t)>& advance = {});
void build_summaries(const Connection& conn, std::int64_t run_id);
// build_summaries for every run of the file not yet summarised.
void build_missing_summaries(const Connection& conn);

}  // namespace tokenscope::store::detail
