#include "store_reader.h"

#include <algorithm>
#include <array>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "activity_codec.h"
#include "connection.h"
#include "file_probe.h"
#include "launch_read.h"
#include "recovery.h"
#include "row_reader.h"
#include "schema.h"
#include "statement.h"
#include "store_error.h"
#include "summary_cache.h"
#include "trace/activity_order.h"
#include "trace/memory_budget.h"

namespace tokenscope::store {
namespace {

using detail::Connection;
using detail::Statement;

// One read transaction per query, so a run being captured is seen as one snapshot.
// Re-entrant: a callback of for_each_activity may query the reader again.
class ReadSnapshot {
  public:
    explicit ReadSnapshot(const Connection& conn) : conn_(conn), owns_(!conn.in_transaction()) {
        if (owns_) conn_.exec("BEGIN");
    }
    ~ReadSnapshot() {
        if (owns_) conn_.rollback();
    }
    ReadSnapshot(const ReadSnapshot&) = delete;
    ReadSnapshot& operator=(const ReadSnapshot&) = delete;

  private:
    const Connection& conn_;
    bool owns_;
};

trace::RunInfo read_info(const Connection& conn, std::int64_t run_id) {
    std::string sql =
        "SELECT " + detail::run_select_columns(conn) + ", complete FROM run WHERE id = ?1";
    Statement st(conn, sql.c_str());
    st.bind_int(1, run_id);
    if (!st.step()) throw StoreError(conn.path(), "no run with id " + std::to_string(run_id));
    trace::RunInfo info = detail::RowReader(conn).run_info(st, 0);
    info.id = run_id;
    info.complete = st.int64(detail::kRunColumnCount) != 0;
    return info;
}

void read_lanes_and_strings(const Connection& conn, std::int64_t run_id, trace::RunData& run) {
    detail::RowReader rows(conn);
    const std::string lane_sql = std::string("SELECT kind, device, process, native_id, name, ") +
                                 detail::lane_rank_column(conn) +
                                 " FROM lane WHERE run_id = ?1 ORDER BY idx";
    Statement lanes(conn, lane_sql.c_str());
    lanes.bind_int(1, run_id);
    while (lanes.step()) run.lanes.push_back(rows.lane(lanes));
    Statement strings(conn, "SELECT id, text FROM string WHERE run_id = ?1 ORDER BY id");
    strings.bind_int(1, run_id);
    while (strings.step()) {
        std::int64_t id = strings.int64(0);
        if (id <= 0 || id > 0xffffffffLL) continue;  // id 0 is always the empty string
        run.strings.assign(static_cast<std::uint32_t>(id), strings.text(1));
    }
}

// Chunks are read lane by lane in write order, so a stable sort of each lane
// reproduces the order in which equal-start activities were added.
void read_activities(const Connection& conn, std::int64_t run_id, trace::RunData& run,
                     const std::function<void(std::int64_t)>& advance) {
    Statement index(conn,
                    "SELECT id, lane, start_min, count FROM activity_chunk WHERE run_id = ?1 "
                    "ORDER BY lane, id");
    Statement data(conn, "SELECT data FROM activity_chunk WHERE id = ?1");
    index.bind_int(1, run_id);
    auto& out = run.activities;
    std::size_t lane_begin = 0;
    std::int64_t current_lane = -1;
    auto finish_lane = [&] {
        if (!std::is_sorted(out.begin() + lane_begin, out.end(), trace::starts_before))
            std::stable_sort(out.begin() + lane_begin, out.end(), trace::starts_before);
        lane_begin = out.size();
    };
    while (index.step()) {
        auto lane = static_cast<std::uint16_t>(index.int64(1));
        if (lane != current_lane) {
            finish_lane();
            current_lane = lane;
        }
        data.bind_int(1, index.int64(0));
        if (!data.step()) throw StoreError(conn.path(), "corrupt file: activity chunk vanished");
        detail::decode_chunk_or_throw(conn.path(), data.blob(0), index.int64(2), lane,
                                      index.int64(3), out);
        data.reset();
        advance(index.int64(3));
    }
    finish_lane();
}

void read_plain_rows(const Connection& conn, std::int64_t run_id, trace::RunData& run,
                     const std::function<void(std::int64_t)>& advance) {
    detail::RowReader rows(conn);
    const std::string step_sql = "SELECT " + detail::RowReader::step_columns(conn) +
                                 " FROM step WHERE run_id = ?1 ORDER BY rowid";
    Statement steps(conn, step_sql.c_str());
    steps.bind_int(1, run_id);
    while (steps.step()) run.steps.push_back(rows.step(steps));
    advance(static_cast<std::int64_t>(run.steps.size()));
    Statement requests(conn,
                       "SELECT id, arrival_ns, first_token_ns, done_ns, input_len, output_len, "
                       "failed FROM request WHERE run_id = ?1 ORDER BY rowid");
    requests.bind_int(1, run_id);
    while (requests.step()) run.requests.push_back(detail::RowReader::request(requests));
    advance(static_cast<std::int64_t>(run.requests.size()));
    Statement counters(conn,
                       "SELECT lane, time_ns, value FROM counter_sample WHERE run_id = ?1 "
                       "ORDER BY rowid");
    counters.bind_int(1, run_id);
    while (counters.step()) run.counters.push_back(detail::RowReader::counter(counters));
    advance(static_cast<std::int64_t>(run.counters.size()));
    Statement diags(conn,
                    "SELECT name, severity, value, text FROM diagnostic WHERE run_id = ?1 "
                    "ORDER BY rowid");
    diags.bind_int(1, run_id);
    while (diags.step()) run.diagnostics.push_back(rows.diagnostic(diags));
}

// Streams run_id's graph_activity rows, each checked against the run's `lanes` lanes.
void stream_graphs(const Connection& conn, std::int64_t run_id, std::size_t lanes,
                   const std::function<void(const trace::GraphActivity&)>& fn) {
    Statement st(conn,
                 "SELECT lane, start_ns, graph_id, node_id FROM graph_activity WHERE run_id = ?1 "
                 "ORDER BY lane, start_ns");
    st.bind_int(1, run_id);
    while (st.step()) {
        const std::int64_t lane = st.int64(0), graph = st.int64(2);
        if (lane < 0 || lane >= static_cast<std::int64_t>(lanes) || graph < 0 ||
            graph > 0xffffffffLL)
            throw StoreError(conn.path(), "graph_activity row out of range (lane " +
                                              std::to_string(lane) + ", graph " +
                                              std::to_string(graph) + ")");
        fn({static_cast<std::uint16_t>(lane),
            st.int64(1),
            {static_cast<std::uint32_t>(graph), static_cast<std::uint64_t>(st.int64(3))}});
    }
}

void read_graphs(const Connection& conn, std::int64_t run_id, trace::RunData& run) {
    stream_graphs(conn, run_id, run.lanes.size(), [&run](const trace::GraphActivity& g) {
        run.graphs.add(g.lane, g.start_ns, g.node);
    });
    run.graphs.finish();
}

// A 10M-activity run is ~480 MB of fresh memory; with 4 KiB pages the kernel's
// page faults cost more than decoding it. Ask for transparent huge pages.
void reserve_activities(std::vector<trace::Activity>& v, std::int64_t count) {
    v.reserve(static_cast<std::size_t>(count));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = 2u << 20;
    auto begin = reinterpret_cast<std::uintptr_t>(v.data());
    std::uintptr_t end = begin + v.capacity() * sizeof(trace::Activity);
    std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
    if (end > first + kHuge)
        madvise(reinterpret_cast<void*>(first), (end - first) & ~(kHuge - 1), MADV_HUGEPAGE);
#endif
}

std::int64_t count_of(const Connection& conn, const char* sql, std::int64_t run_id) {
    Statement st(conn, sql);
    st.bind_int(1, run_id);
    return st.step() ? st.int64(0) : 0;
}

// The rows a load reads besides the activities: steps, requests and counter samples.
std::int64_t plain_row_count(const Connection& conn, std::int64_t run_id) {
    return count_of(conn, "SELECT count(*) FROM step WHERE run_id = ?1", run_id) +
           count_of(conn, "SELECT count(*) FROM request WHERE run_id = ?1", run_id) +
           count_of(conn, "SELECT count(*) FROM counter_sample WHERE run_id = ?1", run_id);
}

void add_incomplete_diagnostic(trace::RunData& run) {
    if (run.info.complete) return;
    for (const auto& d : run.diagnostics)
        if (d.name == "capture_incomplete") return;
    run.diagnostics.push_back(
        {"capture_incomplete", trace::Severity::DataLoss, 1.0,
         "the capture did not finish (killed, crashed, or stopped by a write error such as a "
         "full disk); records after its last commit are lost"});
}

}  // namespace

// What a summarised run read without its activities reads (load_without_activities): all
// that ReaderOptions::check_whole_file = false has walked at open. Not launch_chunk: the
// light load only counts its rows (the b-tree's leaves, never the blobs, and a damaged
// page still fails the count), and walking its blobs took most of `info`'s time on a
// large run (40 ms at 100 M activities, 0.4 s at 1 B); LaunchRead runs after
// check_whole_file.
constexpr std::array<const char*, 10> kRowTables = {
    "run",        "lane",           "string",        "step",          "request", "counter_sample",
    "diagnostic", "activity_total", "kernel_launch", "graph_activity"};

StoreReader::StoreReader(const std::string& path, ReaderOptions options)
    : path_(path), open_path_(path) {
    if (!options.check_whole_file) checked_tables_.assign(kRowTables.begin(), kRowTables.end());
    whole_file_checked_ = options.check_whole_file;
    walk_before_read_ = options.walk_before_read;
    detail::probe_file(path, /*allow_missing=*/false);
    open_connection();
    if (schema_version_ == 0)
        throw ForeignFileError(path,
                               "not a Tokenscope file (empty SQLite database, application_id 0x0)");
    if (schema_version_ < kSchemaVersion && (options.migrate || schema_version_ < 2))
        migrate_or_read_as_is();
    has_launch_rows_ = detail::has_launch_table(*conn_);
    has_launch_chunks_ = detail::has_launch_chunks(*conn_);
    has_graphs_ = detail::has_graph_table(*conn_);
    has_summary_tables_ = detail::has_summary_tables(*conn_);
    has_histogram_table_ = detail::has_histogram_table(*conn_);
    has_activity_total_table_ = detail::has_activity_total_table(*conn_);
    if (!runs_without_summaries().empty())
        cache_ = detail::open_summary_cache(path_, detail::summary_cache_path(path_));
    if (options.map_file) conn_->exec("PRAGMA mmap_size = 17179869184");
    db_ = conn_->get();
}

StoreReader::~StoreReader() = default;

bool StoreReader::has_wal(const std::string& path) {
    return detail::has_wal(path);
}

void StoreReader::open_connection() {
    try {
        conn_ = std::make_unique<Connection>(path_, /*read_only=*/true, checked_tables_);
        schema_version_ = detail::check_identity(*conn_);
        return;
    } catch (const ForeignFileError&) {
        throw;
    } catch (const StoreError&) {
        conn_.reset();
        if (!detail::needs_recovery(path_)) throw;
    }
    // The file has a -wal or a hot journal that SQLite could not read in place (no
    // -shm can be made beside it, a read-only connection cannot roll back): read a
    // private, recovered copy, so every committed batch is seen and nothing is
    // written next to the user's file.
    try {
        copy_ = std::make_unique<detail::RecoveredCopy>(path_);
        open_path_ = copy_->path();
        conn_ = std::make_unique<Connection>(open_path_, /*read_only=*/true, checked_tables_);
        schema_version_ = detail::check_identity(*conn_);
    } catch (const StoreError& e) {
        conn_.reset();
        copy_.reset();
        if (dynamic_cast<const ForeignFileError*>(&e) != nullptr)
            throw ForeignFileError(path_, e.problem());
        throw StoreError(path_, e.problem());
    }
}

void StoreReader::migrate_or_read_as_is() {
    // Migration needs a writable connection; the result is reopened read-only.
    conn_.reset();
    try {
        Connection rw(open_path_, /*read_only=*/false);
        detail::migrate(rw);
    } catch (const StoreError&) {
        // Version 2 lacks only the launch table, which reads as empty; older
        // versions lack columns every query needs, so they must migrate.
        if (schema_version_ < 2) throw;
    }
    conn_ = std::make_unique<Connection>(open_path_, /*read_only=*/true, checked_tables_);
    schema_version_ = detail::check_identity(*conn_);
}

void StoreReader::check_whole_file() const {
    if (whole_file_checked_) return;
    conn_->check({});
    whole_file_checked_ = true;
}

void StoreReader::check_table(const char* table) const {
    if (whole_file_checked_ || !walk_before_read_ ||
        std::find(checked_tables_.begin(), checked_tables_.end(), table) != checked_tables_.end())
        return;
    conn_->check({table});
    checked_tables_.emplace_back(table);
}

std::vector<std::int64_t> StoreReader::run_ids() const {
    ReadSnapshot snapshot(*conn_);
    Statement st(*conn_, "SELECT id FROM run ORDER BY id");
    std::vector<std::int64_t> out;
    while (st.step()) out.push_back(st.int64(0));
    return out;
}

std::vector<RunSummary> StoreReader::runs() const {
    check_whole_file();
    ReadSnapshot snapshot(*conn_);
    std::string sql = "SELECT id, " + detail::run_select_columns(*conn_) +
                      ", complete, "
                      "(SELECT coalesce(sum(count), 0) FROM activity_chunk WHERE run_id = run.id), "
                      "(SELECT count(*) FROM step WHERE run_id = run.id), "
                      "(SELECT count(*) FROM request WHERE run_id = run.id), "
                      "(SELECT count(*) FROM lane WHERE run_id = run.id), " +
                      launch_count_sql() + " FROM run ORDER BY id";
    Statement st(*conn_, sql.c_str());
    detail::RowReader rows(*conn_);
    std::vector<RunSummary> out;
    constexpr int c = detail::kRunColumnCount + 1;
    while (st.step()) {
        RunSummary s;
        s.info = rows.run_info(st, 1);
        s.info.id = st.int64(0);
        s.info.complete = st.int64(c) != 0;
        s.activity_count = st.int64(c + 1);
        s.step_count = st.int64(c + 2);
        s.request_count = st.int64(c + 3);
        s.lane_count = st.int64(c + 4);
        s.launch_count = st.int64(c + 5);
        out.push_back(std::move(s));
    }
    return out;
}

trace::RunData StoreReader::load_without_activities(std::int64_t run_id,
                                                    const trace::ActivityTotals& totals,
                                                    const trace::ProgressFn& progress) const {
    trace::RunData run;
    run.info = read_info(*conn_, run_id);
    const std::int64_t total = plain_row_count(*conn_, run_id);
    trace::MemoryBudget(path_).require(
        static_cast<std::uint64_t>(total) * sizeof(trace::Step),
        "run " + std::to_string(run_id) + " (" + std::to_string(total) + " rows)");
    std::int64_t done = 0;
    auto advance = [&](std::int64_t n) {
        done += n;
        if (progress && !progress(done, total)) throw trace::Cancelled();
    };
    advance(0);
    read_lanes_and_strings(*conn_, run_id, run);
    read_plain_rows(*conn_, run_id, run, advance);
    trace::ActivitiesInFile in_file;
    in_file.totals = totals;
    // As the launch tables count them: a correlation written twice counts twice here, once
    // in a loaded LaunchTable.
    const std::string launches = "SELECT " + launch_count_sql() + " FROM run WHERE id = ?1";
    in_file.launches = count_of(*conn_, launches.c_str(), run_id);
    if (has_graphs_)
        in_file.graph_activities =
            count_of(*conn_, "SELECT count(*) FROM graph_activity WHERE run_id = ?1", run_id);
    run.in_file = in_file;
    add_incomplete_diagnostic(run);
    return run;
}

std::string StoreReader::launch_count_sql() const {
    // The count a chunk claims, bounded by what its blob holds (8 bytes a launch).
    std::string sql = "(0";
    if (has_launch_rows_) sql += " + (SELECT count(*) FROM kernel_launch WHERE run_id = run.id)";
    if (has_launch_chunks_)
        sql +=
            " + (SELECT coalesce(sum(max(0, min(count, length(data) / 8))), 0) FROM "
            "launch_chunk WHERE run_id = run.id)";
    return sql + ")";
}

trace::RunData StoreReader::load_run(std::int64_t run_id, const trace::ProgressFn& progress,
                                     LoadParts parts) const {
    ReadSnapshot snapshot(*conn_);
    if (parts == LoadParts::TotalsForActivities)
        if (auto totals = activity_totals(run_id))
            return load_without_activities(run_id, *totals, progress);
    check_whole_file();
    trace::RunData run;
    run.info = read_info(*conn_, run_id);
    // Each count bounded by what its chunk can hold (8 bytes an activity at least,
    // as decode_chunk checks): a hostile count must not reserve terabytes up front.
    std::int64_t activities = count_of(*conn_,
                                       "SELECT coalesce(sum(max(0, min(count, length(data) / 8))), "
                                       "0) FROM activity_chunk WHERE run_id = ?1",
                                       run_id);
    std::int64_t total = activities + plain_row_count(*conn_, run_id);
    // The whole run is loaded into memory: refused up front when it cannot fit.
    trace::MemoryBudget(path_).require(
        static_cast<std::uint64_t>(total) * sizeof(trace::Activity),
        "run " + std::to_string(run_id) + " (" + std::to_string(total) + " activities and rows)");
    std::int64_t done = 0;
    auto advance = [&](std::int64_t n) {
        done += n;
        if (progress && !progress(done, total)) throw trace::Cancelled();
    };
    advance(0);
    // The launch rows are read beside the rest, on a connection of their own.
    std::optional<detail::LaunchRead> launches;
    if (has_launches())
        launches.emplace(open_path_, run_id,
                         detail::LaunchRead::Tables{has_launch_rows_, has_launch_chunks_});
    read_lanes_and_strings(*conn_, run_id, run);
    reserve_activities(run.activities, activities);
    read_activities(*conn_, run_id, run, advance);
    read_plain_rows(*conn_, run_id, run, advance);
    if (launches) run.launches = launches->take();
    if (has_graphs_) read_graphs(*conn_, run_id, run);
    add_incomplete_diagnostic(run);
    return run;
}

void StoreReader::for_each_activity(std::int64_t run_id, std::uint16_t lane, std::int64_t t0,
                                    std::int64_t t1,
                                    const std::function<void(const trace::Activity&)>& fn) const {
    check_table("activity_chunk");
    ReadSnapshot snapshot(*conn_);
    // The index gives chunks in start_min order; chunks may overlap in time (late
    // arrivals, commit flushes), so decoded chunks are merged into a pending
    // buffer and emitted once no later chunk can start before them.
    Statement st(*conn_,
                 "SELECT start_min, count, data FROM activity_chunk WHERE run_id = ?1 AND "
                 "lane = ?2 AND start_min < ?4 AND (end_max > ?3 OR start_max >= ?3) "
                 "ORDER BY start_min, id");
    st.bind_int(1, run_id).bind_int(2, lane).bind_int(3, t0).bind_int(4, t1);
    std::vector<trace::Activity> pending, decoded, merged;
    while (st.step()) {
        std::int64_t start_min = st.int64(0);
        auto ready = std::find_if(pending.begin(), pending.end(),
                                  [&](const trace::Activity& a) { return a.start_ns > start_min; });
        for (auto it = pending.begin(); it != ready; ++it) fn(*it);
        pending.erase(pending.begin(), ready);
        decoded.clear();
        detail::decode_chunk_or_throw(conn_->path(), st.blob(2), start_min, lane, st.int64(1),
                                      decoded);
        std::erase_if(decoded, [&](const trace::Activity& a) { return !a.overlaps(t0, t1); });
        merged.clear();
        std::merge(pending.begin(), pending.end(), decoded.begin(), decoded.end(),
                   std::back_inserter(merged), trace::starts_before);
        pending.swap(merged);
    }
    for (const auto& a : pending) fn(a);
}

void StoreReader::for_each_graph_activity(
    std::int64_t run_id, const std::function<void(const trace::GraphActivity&)>& fn) const {
    if (!has_graphs_) return;
    check_table("graph_activity");
    const auto lanes = count_of(*conn_, "SELECT count(*) FROM lane WHERE run_id = ?1", run_id);
    stream_graphs(*conn_, run_id, static_cast<std::size_t>(lanes), fn);
}

void StoreReader::for_each_step(std::int64_t run_id, std::optional<std::int64_t> request,
                                const std::function<void(const trace::Step&)>& fn) const {
    ReadSnapshot snapshot(*conn_);
    std::string sql =
        "SELECT " + detail::RowReader::step_columns(*conn_) + " FROM step WHERE run_id = ?1";
    if (request) sql += " AND request = ?2";
    sql += " ORDER BY request, idx";
    Statement st(*conn_, sql.c_str());
    st.bind_int(1, run_id);
    if (request) st.bind_int(2, *request);
    detail::RowReader rows(*conn_);
    while (st.step()) fn(rows.step(st));
}

}  // namespace tokenscope::store
