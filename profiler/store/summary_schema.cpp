// The tables of DESIGN.md section 17 (schema 10 to 12), in a file's schema and in a
// summary cache's (summary_cache.h): docs/file-format.md, summary_chunk,
// duration_histogram and activity_total.
#include "connection.h"
#include "schema.h"

namespace tokenscope::store::detail {
namespace {

// Per lane, timeline summaries at levels of bins each 8 times wider than the one below, as
// chunks of records (summary_codec.h).
constexpr const char* kSummaryChunkTable = R"sql(
CREATE TABLE summary_chunk (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL,
    lane INTEGER NOT NULL,
    level INTEGER NOT NULL,
    width_log2 INTEGER NOT NULL,
    bin_min INTEGER NOT NULL,
    bin_max INTEGER NOT NULL,
    count INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE INDEX summary_chunk_by_lane ON summary_chunk (run_id, lane, level, bin_min);
)sql";

// Duration histograms (duration_histogram.h) per lane, name and block of 2^block_log2 ns.
constexpr const char* kHistogramTable = R"sql(
CREATE TABLE duration_histogram (
    run_id INTEGER NOT NULL,
    lane INTEGER NOT NULL,
    name INTEGER NOT NULL,
    block_log2 INTEGER NOT NULL,
    block INTEGER NOT NULL,
    count INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE INDEX duration_histogram_by_name ON duration_histogram (run_id, name, block);
)sql";

// Per lane, how many activities of each kind and copy kind it holds, their bytes and time
// extent (trace::ActivityTotals): `info` without reading a single activity.
constexpr const char* kActivityTotalTable = R"sql(
CREATE TABLE activity_total (
    run_id INTEGER NOT NULL,
    lane INTEGER NOT NULL,
    kind TEXT NOT NULL,
    copy TEXT NOT NULL,
    count INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    first_start_ns INTEGER NOT NULL,
    last_end_ns INTEGER NOT NULL,
    PRIMARY KEY (run_id, lane, kind, copy)
) WITHOUT ROWID;
)sql";

// Per run, its steps' exact attribution (DESIGN.md sections 5 and 17) as the analysis
// encoded it for one set of options (analysis/attribution/attribution_record.h): chunk 0
// the run's figures, then the steps in order. Optional in any file since version 12: made
// when a run is written (import, capture) and read instead of the activities; a file
// without it is analysed slice by slice.
constexpr const char* kStepAttributionTable = R"sql(
CREATE TABLE IF NOT EXISTS step_attribution (
    run_id INTEGER NOT NULL,
    options TEXT NOT NULL,
    chunk INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS step_attribution_by_run
    ON step_attribution (run_id, options, chunk);
)sql";

}  // namespace

void create_step_attribution_table(const Connection& conn) {
    conn.exec(kStepAttributionTable);
}

bool has_step_attribution_table(const Connection& conn) {
    return conn.query_int(
               "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
               "name = 'step_attribution'") > 0;
}

void create_summary_chunk_table(const Connection& conn) {
    conn.exec(kSummaryChunkTable);
}

void create_histogram_table(const Connection& conn) {
    conn.exec(kHistogramTable);
}

void create_activity_total_table(const Connection& conn) {
    conn.exec(kActivityTotalTable);
}

void create_summary_tables(const Connection& conn) {
    create_summary_chunk_table(conn);
    create_histogram_table(conn);
    create_activity_total_table(conn);
}

bool has_summary_tables(const Connection& conn) {
    return conn.query_int(
               "SELECT count(*) FROM pragma_table_info('run') WHERE name = 'summarized'") > 0;
}

bool has_histogram_table(const Connection& conn) {
    return conn.query_int(
               "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
               "name = 'duration_histogram'") > 0;
}

}  // namespace tokenscope::store::detail

namespace tokenscope::store::detail {

bool has_activity_total_table(const Connection& conn) {
    return conn.query_int(
               "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
               "name = 'activity_total'") > 0;
}

}  // namespace tokenscope::store::detail
