#include "schema.h"

#include <cstdio>
#include <string>

#include "connection.h"
#include "launch_rows.h"
#include "store_error.h"
#include "summary_writer.h"

namespace tokenscope::store::detail {
namespace {

// Enums are stored as their text names so the file reads well in the sqlite3 shell.
// Version 2 tables; the current schema is these plus the later migration steps.
constexpr const char* kSchemaV2 = R"sql(
CREATE TABLE run (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    created_ns INTEGER NOT NULL,
    host TEXT NOT NULL,
    gpu_name TEXT NOT NULL,
    gpu_sm_count INTEGER NOT NULL,
    gpu_peak_bandwidth REAL NOT NULL,
    gpu_peak_flops REAL NOT NULL,
    gpu_pcie_generation INTEGER NOT NULL,
    gpu_pcie_width INTEGER NOT NULL,
    gpu_nvlink_links INTEGER NOT NULL,
    gpu_nvlink_bandwidth REAL NOT NULL,
    driver_version TEXT NOT NULL,
    cuda_version TEXT NOT NULL,
    workload_json TEXT NOT NULL,
    clock TEXT NOT NULL DEFAULT 'monotonic_raw',
    complete INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE lane (
    run_id INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    kind TEXT NOT NULL,
    device INTEGER NOT NULL,
    process INTEGER NOT NULL,
    native_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE TABLE string (
    run_id INTEGER NOT NULL,
    id INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
CREATE TABLE activity_chunk (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL,
    lane INTEGER NOT NULL,
    start_min INTEGER NOT NULL,
    start_max INTEGER NOT NULL,
    end_max INTEGER NOT NULL,
    count INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE INDEX activity_chunk_by_lane ON activity_chunk (run_id, lane, start_min);
CREATE TABLE step (
    run_id INTEGER NOT NULL,
    request INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    phase TEXT NOT NULL,
    start_ns INTEGER NOT NULL,
    end_ns INTEGER NOT NULL,
    floor_ns INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX step_by_request ON step (run_id, request, idx);
CREATE TABLE request (
    run_id INTEGER NOT NULL,
    id INTEGER NOT NULL,
    arrival_ns INTEGER NOT NULL,
    first_token_ns INTEGER NOT NULL,
    done_ns INTEGER NOT NULL,
    input_len INTEGER NOT NULL,
    output_len INTEGER NOT NULL,
    failed INTEGER NOT NULL
);
CREATE INDEX request_by_run ON request (run_id, id);
CREATE TABLE counter_sample (
    run_id INTEGER NOT NULL,
    lane INTEGER NOT NULL,
    time_ns INTEGER NOT NULL,
    value REAL NOT NULL
);
CREATE INDEX counter_sample_by_lane ON counter_sample (run_id, lane, time_ns);
CREATE TABLE diagnostic (
    run_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    severity TEXT NOT NULL,
    value REAL NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX diagnostic_by_run ON diagnostic (run_id);
)sql";

// Version 1 -> 2: counter samples, per-step roofline floor, run clock domain.
// Old runs predate clock tracking; their timestamps were host CLOCK_MONOTONIC_RAW.
constexpr const char* kMigrate1To2 = R"sql(
ALTER TABLE run ADD COLUMN clock TEXT NOT NULL DEFAULT 'monotonic_raw';
ALTER TABLE step ADD COLUMN floor_ns INTEGER NOT NULL DEFAULT 0;
CREATE TABLE counter_sample (
    run_id INTEGER NOT NULL,
    lane INTEGER NOT NULL,
    time_ns INTEGER NOT NULL,
    value REAL NOT NULL
);
CREATE INDEX counter_sample_by_lane ON counter_sample (run_id, lane, time_ns);
)sql";

// Version 2 -> 3: kernel launch facts (grid, block, shared memory, registers).
// Older runs had none recorded, so the table starts empty for them.
constexpr const char* kMigrate2To3 = R"sql(
CREATE TABLE kernel_launch (
    run_id INTEGER NOT NULL,
    correlation INTEGER NOT NULL,
    grid_x INTEGER NOT NULL,
    grid_y INTEGER NOT NULL,
    grid_z INTEGER NOT NULL,
    block_x INTEGER NOT NULL,
    block_y INTEGER NOT NULL,
    block_z INTEGER NOT NULL,
    shared_bytes INTEGER NOT NULL,
    registers INTEGER NOT NULL,
    PRIMARY KEY (run_id, correlation)
) WITHOUT ROWID;
)sql";

// Version 3 -> 4: sweeps (docs/sweeps.md). A sweep names its grid and options;
// each counted run of a point is one sweep_point row. Files without sweeps keep both
// tables empty.
constexpr const char* kMigrate3To4 = R"sql(
CREATE TABLE sweep (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created_ns INTEGER NOT NULL,
    spec_json TEXT NOT NULL
);
CREATE TABLE sweep_point (
    sweep_id INTEGER NOT NULL,
    point INTEGER NOT NULL,
    repeat INTEGER NOT NULL,
    run_id INTEGER NOT NULL,
    params_json TEXT NOT NULL,
    PRIMARY KEY (sweep_id, point, repeat)
) WITHOUT ROWID;
)sql";

// Version 4 -> 5: an engine iteration's batch composition, read from its marker
// (requests and tokens in prefill and in decode; -1 = the marker did not say).
// Steps of older files read as of unknown composition.
constexpr const char* kMigrate4To5 = R"sql(
ALTER TABLE step ADD COLUMN prefill_requests INTEGER NOT NULL DEFAULT -1;
ALTER TABLE step ADD COLUMN prefill_tokens INTEGER NOT NULL DEFAULT -1;
ALTER TABLE step ADD COLUMN decode_requests INTEGER NOT NULL DEFAULT -1;
ALTER TABLE step ADD COLUMN decode_tokens INTEGER NOT NULL DEFAULT -1;
)sql";

// Version 5 -> 6: several GPUs and ranks in one run (docs/engine-traces.md, Several GPUs and
// ranks). A lane names its rank (-1 = unknown, every lane of an older file) and a run the UTC time
// of its clock's zero (NULL = unknown), which merging per-rank files aligns by.
constexpr const char* kMigrate5To6 = R"sql(
ALTER TABLE lane ADD COLUMN rank INTEGER NOT NULL DEFAULT -1;
ALTER TABLE run ADD COLUMN origin_utc_ns INTEGER;
)sql";

// Version 6 -> 7: CUDA graphs (docs/engine-traces.md). The graph and node a GPU
// activity ran as, keyed by its lane and start (the kernels of one graph launch share
// a correlation id). node_id 0 = the activity is a whole graph launch. Older runs
// read as run outside graphs.
constexpr const char* kMigrate6To7 = R"sql(
CREATE TABLE graph_activity (
    run_id INTEGER NOT NULL,
    lane INTEGER NOT NULL,
    start_ns INTEGER NOT NULL,
    graph_id INTEGER NOT NULL,
    node_id INTEGER NOT NULL,
    PRIMARY KEY (run_id, lane, start_ns)
) WITHOUT ROWID;
)sql";

// Version 7 -> 8: kernel launch facts as configurations and chunks (launch_codec.h):
// 8 bytes a launch instead of a row of ten integers. The migration moves the launch
// rows of older runs into chunks (launch_rows.h); kernel_launch stays, empty, so a
// file read as it is and a migrated one are read by one path.
constexpr const char* kMigrate7To8 = R"sql(
CREATE TABLE launch_config (
    run_id INTEGER NOT NULL,
    id INTEGER NOT NULL,
    grid_x INTEGER NOT NULL,
    grid_y INTEGER NOT NULL,
    grid_z INTEGER NOT NULL,
    block_x INTEGER NOT NULL,
    block_y INTEGER NOT NULL,
    block_z INTEGER NOT NULL,
    shared_bytes INTEGER NOT NULL,
    registers INTEGER NOT NULL,
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
CREATE TABLE launch_chunk (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL,
    count INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE INDEX launch_chunk_by_run ON launch_chunk (run_id, id);
)sql";

// Version 8 -> 9: engine iterations as their GPU work makes them (docs/engine-traces.md,
// Iteration windows): the keys an iteration's attention reads, per phase (-1 = the marker
// did not say), and where its CPU marker ended (0 = a step not framed by a marker; the
// step itself may run on past it to the end of the GPU work the marker launched).
constexpr const char* kMigrate8To9 = R"sql(
ALTER TABLE step ADD COLUMN prefill_key_tokens INTEGER NOT NULL DEFAULT -1;
ALTER TABLE step ADD COLUMN decode_key_tokens INTEGER NOT NULL DEFAULT -1;
ALTER TABLE step ADD COLUMN marker_end_ns INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 9 -> 10: runs larger than memory (DESIGN.md section 17): run.summarized and the
// summary_chunk table (summary_schema.cpp). Version 10 -> 11: the duration_histogram table;
// every run's summaries are built again with its histograms (summarized = 0, then
// build_missing_summaries). Version 11 -> 12: the activity_total table, built the same way
// (so a version 10 file's summaries are built once, at the end).
constexpr const char* kMigrate9To10 =
    "ALTER TABLE run ADD COLUMN summarized INTEGER NOT NULL DEFAULT 0;";
constexpr const char* kSummariesAgain = "UPDATE run SET summarized = 0;";

bool has_column(const Connection& conn, const char* table, const char* column) {
    std::string sql = std::string("SELECT count(*) FROM pragma_table_info('") + table +
                      "') WHERE name = '" + column + "'";
    return conn.query_int(sql.c_str()) > 0;
}

std::string hex(long long v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v) & 0xffffffffULL);
    return buf;
}

void stamp(const Connection& conn, int version) {
    std::string sql = "PRAGMA application_id = " + std::to_string(kApplicationId) +
                      "; PRAGMA user_version = " + std::to_string(version) + ";";
    conn.exec(sql.c_str());
}

}  // namespace

void create_schema(const Connection& conn) {
    conn.write_transaction([&] {
        conn.exec(kSchemaV2);
        conn.exec(kMigrate2To3);
        conn.exec(kMigrate3To4);
        conn.exec(kMigrate4To5);
        conn.exec(kMigrate5To6);
        conn.exec(kMigrate6To7);
        conn.exec(kMigrate7To8);
        conn.exec(kMigrate8To9);
        conn.exec(kMigrate9To10);
        create_summary_tables(conn);
        stamp(conn, kSchemaVersion);
    });
}

void migrate(const Connection& conn) {
    conn.write_transaction([&] {
        // Re-read under the write lock: another process may have migrated meanwhile.
        int version = static_cast<int>(conn.query_int("PRAGMA user_version"));
        if (version == 1) {
            conn.exec(kMigrate1To2);
            version = 2;
        }
        if (version == 2) {
            conn.exec(kMigrate2To3);
            version = 3;
        }
        if (version == 3) {
            conn.exec(kMigrate3To4);
            version = 4;
        }
        if (version == 4) {
            // Only the columns differ; a file that already has them stays as it is.
            if (!has_step_batch(conn)) conn.exec(kMigrate4To5);
            version = 5;
        }
        if (version == 5) {
            if (!has_column(conn, "lane", "rank")) conn.exec(kMigrate5To6);
            version = 6;
        }
        if (version == 6) {
            if (!has_graph_table(conn)) conn.exec(kMigrate6To7);
            version = 7;
        }
        if (version == 7) {
            if (!has_launch_chunks(conn)) conn.exec(kMigrate7To8);
            // Moving the rows prepares the writer's statements, which name the current
            // step columns: they are added first (the 8 -> 9 step then finds them there).
            if (!has_step_windows(conn)) conn.exec(kMigrate8To9);
            move_launch_rows_to_chunks(conn);
            version = 8;
        }
        if (version == 8) {
            if (!has_step_windows(conn)) conn.exec(kMigrate8To9);
            version = 9;
        }
        if (version == 9) {
            if (!has_summary_tables(conn)) {
                conn.exec(kMigrate9To10);
                create_summary_chunk_table(conn);
            }
            version = 10;
        }
        const bool summaries_built_here = version < 12;
        if (version == 10) {
            if (!has_histogram_table(conn)) {
                create_histogram_table(conn);
                conn.exec(kSummariesAgain);
            }
            version = 11;
        }
        if (version == 11) {
            if (!has_activity_total_table(conn)) {
                create_activity_total_table(conn);
                conn.exec(kSummariesAgain);
            }
            version = 12;
        }
        // Summaries, histograms and totals in one pass over each run's chunks.
        if (summaries_built_here) build_missing_summaries(conn);
        stamp(conn, version);
    });
}

bool has_step_batch(const Connection& conn) {
    return conn.query_int(
               "SELECT count(*) FROM pragma_table_info('step') WHERE "
               "name = 'decode_tokens'") > 0;
}

bool has_step_windows(const Connection& conn) {
    return has_column(conn, "step", "marker_end_ns");
}

std::string run_select_columns(const Connection& conn) {
    std::string cols = kRunColumns;
    if (!has_column(conn, "run", "origin_utc_ns"))
        cols.replace(cols.rfind("origin_utc_ns"), std::string("origin_utc_ns").size(), "NULL");
    return cols;
}

const char* lane_rank_column(const Connection& conn) {
    return has_column(conn, "lane", "rank") ? "rank" : "-1";
}

bool has_sweep_tables(const Connection& conn) {
    return conn.query_int(
               "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
               "name = 'sweep_point'") > 0;
}

bool has_graph_table(const Connection& conn) {
    return conn.query_int(
               "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
               "name = 'graph_activity'") > 0;
}

bool has_launch_table(const Connection& conn) {
    return conn.query_int(
               "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
               "name = 'kernel_launch'") > 0;
}

bool has_launch_chunks(const Connection& conn) {
    return conn.query_int(
               "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
               "name = 'launch_chunk'") > 0;
}

int check_identity(const Connection& conn) {
    long long app = conn.query_int("PRAGMA application_id");
    long long version = conn.query_int("PRAGMA user_version");
    if (app == 0 && version == 0 && conn.query_int("SELECT count(*) FROM sqlite_master") == 0)
        return 0;
    if (app != kApplicationId)
        throw ForeignFileError(conn.path(), "not a Tokenscope file (application_id " + hex(app) +
                                                ", expected " + hex(kApplicationId) + ")");
    if (version > kSchemaVersion)
        throw StoreError(conn.path(), "schema version " + std::to_string(version) +
                                          " is newer than this build supports (" +
                                          std::to_string(kSchemaVersion) + ")");
    if (version < 1)
        throw StoreError(conn.path(), "unknown schema version " + std::to_string(version) +
                                          " of a Tokenscope file");
    return static_cast<int>(version);
}

}  // namespace tokenscope::store::detail
