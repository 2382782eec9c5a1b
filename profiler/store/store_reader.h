#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "duration_histogram.h"
#include "timeline_summary.h"
#include "trace/activity_totals.h"
#include "trace/progress.h"
#include "trace/run_data.h"

struct sqlite3;

namespace tokenscope::store {

namespace detail {
class Connection;
class RecoveredCopy;
}  // namespace detail

struct RunSummary {
    trace::RunInfo info;
    std::int64_t activity_count = 0;
    std::int64_t step_count = 0;
    std::int64_t request_count = 0;
    std::int64_t lane_count = 0;
    std::int64_t launch_count = 0;  // kernels with launch facts (grid, block, ...)
};

struct ReaderOptions {
    // Migrate an older file in place on open (one transaction). Off: it is read as it is
    // (a version 1 file must migrate all the same), and its runs have no summaries but
    // those build_summary_cache makes.
    bool migrate = true;
    // Walk the whole file when it opens (UntrustedSqlite's quick_check: about 0.3 s a GB).
    // false: only the tables of runs' rows and totals then (kRowTables), each of the rest
    // (activity, summary, histogram and launch chunks) before the first read of it, or not
    // at all where only its rows are counted (launch chunks); so a summarised
    // run read without its activities, or its timeline summaries, opens in the same time
    // at any size.
    bool check_whole_file = true;
    // With check_whole_file false, whether a chunk table (activity, summary, histogram) is
    // walked before its first read. false: never; a read that meets a damaged page fails
    // there (SQLite's defensive mode, the chunk decoders' checks), naming the file. For a
    // reader of small stretches of a file larger than memory (the timeline's activity
    // window), whose first read would otherwise wait for a walk of every activity chunk
    // (0.3 s a GB: seconds at a billion activities).
    bool walk_before_read = true;
    // Map the file into memory (load_run reads every chunk: a read() and a copy per page
    // saved). false: pages are read into SQLite's own small cache, so one pass over a file
    // larger than memory (a run analysed slice by slice) leaves the process small; the
    // file's mapped pages would count in its resident memory.
    bool map_file = true;

    // A file a run was already opened from, opened again for a pass over its activities
    // (breakdown, diff and heatmaps from the file, Find, the GUI's background analyses):
    // as it is (the first open migrated it, or could not), each table it reads walked
    // before its first read, unmapped.
    static ReaderOptions pass() {
        return {.migrate = false, .check_whole_file = false, .map_file = false};
    }
    // The same file opened again for stretches of it (the timeline's window, an export
    // window, a token's iteration): as pass(), but no table walked first, so a damaged page
    // fails the read that meets it instead of the first read waiting for a walk of them all.
    static ReaderOptions stretches() {
        ReaderOptions o = pass();
        o.walk_before_read = false;
        return o;
    }
};

// Opens a .tokenscope file read-only (migrating an older schema first, in place,
// inside one transaction, unless ReaderOptions say not to). A version 2 file that cannot be
// migrated (read-only media, another writer holding the lock) is read as it is, its runs without
// kernel launches. A -wal beside the file (a capture running, or killed) is
// read too, through a private copy where SQLite cannot index it in place.
// Throws StoreError naming the file and the problem for a missing, truncated,
// corrupt or foreign (ForeignFileError) file.
class StoreReader {
  public:
    explicit StoreReader(const std::string& path, ReaderOptions options = {});
    ~StoreReader();
    StoreReader(const StoreReader&) = delete;
    StoreReader& operator=(const StoreReader&) = delete;

    std::vector<RunSummary> runs() const;
    // The runs' ids in order: what opening a file needs, without runs()' counts (a
    // count of the launch rows alone took ~0.3 s on the 10 M-activity bench run).
    std::vector<std::int64_t> run_ids() const;
    // What load_run reads.
    enum class LoadParts {
        Everything,
        // A run whose activity totals are stored (activity_totals) is read without its
        // activities, launches and CUDA graph nodes: RunData::in_file says what the file
        // holds of them. Any other run is read whole.
        TotalsForActivities,
    };
    // The run in memory; activities come back sorted by (lane, start).
    trace::RunData load_run(std::int64_t run_id, const trace::ProgressFn& progress = {},
                            LoadParts parts = LoadParts::Everything) const;

    // Streams a lane's activities that overlap [t0, t1), in start order.
    void for_each_activity(std::int64_t run_id, std::uint16_t lane, std::int64_t t0,
                           std::int64_t t1,
                           const std::function<void(const trace::Activity&)>& fn) const;
    // Streams steps in (request, index) order; all requests when request is nullopt.
    void for_each_step(std::int64_t run_id, std::optional<std::int64_t> request,
                       const std::function<void(const trace::Step&)>& fn) const;

    // Streams the run's kernel launch facts as stored, one launch chunk (or the rows of an
    // older file read as it is) at a time, so memory does not grow with the run: a
    // repeated correlation comes as often as it was written (load_run keeps the first).
    void for_each_launch(std::int64_t run_id,
                         const std::function<void(const trace::KernelLaunch&)>& fn) const;
    // Streams the CUDA graph nodes of the run's GPU activities in (lane, start) order.
    void for_each_graph_activity(std::int64_t run_id,
                                 const std::function<void(const trace::GraphActivity&)>& fn) const;

    // Section 17's timeline summaries (docs/file-format.md, summary_chunk): false when the
    // run has none (a file read without migrating, a capture that did not finish).
    bool has_summaries(std::int64_t run_id) const;
    // Builds the summaries and histograms of every run that lacks them (a file read without
    // migrating: read-only media, another writer's lock, ReaderOptions) into the cache of
    // summary_cache.h, beside the user's data and never in the file, and reads them from
    // there from now on, as later opens of the unchanged file do. False when every run
    // had its summaries. Progress counts activities; trace::Cancelled leaves no cache.
    bool build_summary_cache(const trace::ProgressFn& progress = {});

    // [first start, last end] of a lane's activities, from the chunk directory alone;
    // empty for a lane without activities.
    std::optional<std::pair<std::int64_t, std::int64_t>> lane_bounds(std::int64_t run_id,
                                                                     std::uint16_t lane) const;
    // A lane's summary levels, finest first; empty when the run has no summaries.
    std::vector<SummaryLevel> summary_levels(std::int64_t run_id, std::uint16_t lane) const;
    // The bins of one level that overlap [t0, t1), in bin order, one per bin (repeated
    // bins expanded, partial records of one bin merged); empty without summaries. A range
    // of more than 2^20 bins is refused (StoreError): ask a coarser level.
    std::vector<SummaryBin> summary_bins(std::int64_t run_id, std::uint16_t lane, int level,
                                         std::int64_t t0, std::int64_t t1) const;

    // The durations of the activities named `name` (a string id of the run) that start in
    // the histogram blocks overlapping [t0, t1) (2^32 ns blocks: activities up to a block
    // before t0 and after t1 count too), on one lane or all; empty without histograms.
    DurationHistogram duration_histogram(std::int64_t run_id, std::uint32_t name, std::int64_t t0,
                                         std::int64_t t1,
                                         std::optional<std::uint16_t> lane = {}) const;

    // How many activities of each kind the run's lanes (or one lane) hold, and their bytes,
    // from the activity_total rows written with the summaries; nullopt when the run has
    // none (no summaries, or a version 11 file read as it is).
    std::optional<trace::ActivityTotals> activity_totals(
        std::int64_t run_id, std::optional<std::uint16_t> lane = {}) const;

    // The run's encoded step attribution for `options` (StoreWriter::write_step_attribution),
    // chunk by chunk in order; empty when the file has none for them.
    std::vector<std::vector<std::uint8_t>> step_attribution(std::int64_t run_id,
                                                            std::string_view options) const;

    // FILE-wal exists and holds data: a capture is running, or was killed.
    static bool has_wal(const std::string& path);

    int schema_version() const { return schema_version_; }
    // False for a version 2 file read without migrating: no run has launches.
    bool has_launches() const { return has_launch_rows_ || has_launch_chunks_; }
    const std::string& path() const { return path_; }

  private:
    friend class LaneStream;  // reads the activity chunks through conn_

    void open_connection();
    void migrate_or_read_as_is();
    trace::RunData load_without_activities(std::int64_t run_id, const trace::ActivityTotals& totals,
                                           const trace::ProgressFn& progress) const;
    // runs()' launch count column for the launch tables this file has.
    std::string launch_count_sql() const;

    // The whole file, or one table (with its indexes), walked by the untrusted-file checks
    // before the first read that needs it, unless done already
    // (ReaderOptions::check_whole_file).
    void check_whole_file() const;
    void check_table(const char* table) const;

    std::string path_;
    std::string open_path_;
    mutable std::vector<std::string> checked_tables_;  // walked so far, unless the whole file
    mutable bool whole_file_checked_ = false;  // path_, or the private copy that reads its -wal
    bool walk_before_read_ = true;             // ReaderOptions::walk_before_read
    std::unique_ptr<detail::RecoveredCopy> copy_;
    sqlite3* db_ = nullptr;  // conn_'s handle
    int schema_version_ = 0;
    bool has_launch_rows_ = false;    // kernel_launch (schema 3 to 7)
    bool has_launch_chunks_ = false;  // launch_config and launch_chunk (schema 8)
    bool has_graphs_ = false;
    bool has_summary_tables_ = false;        // schema 10
    bool has_histogram_table_ = false;       // schema 11
    bool has_activity_total_table_ = false;  // schema 12
    // Where run_id's summaries are read: the file, its cache, or nowhere (nullptr).
    const detail::Connection* summaries_of(std::int64_t run_id) const;
    std::vector<std::int64_t> runs_without_summaries() const;
    std::unique_ptr<detail::Connection> cache_;  // summary_cache.h, when there is one
    std::unique_ptr<detail::Connection> conn_;
};

}  // namespace tokenscope::store
