#include "sqlite_run_writer.h"

#include <algorithm>

#include "store_error.h"
#include "trace/activity_order.h"

namespace tokenscope::store::detail {
namespace {

// Reading the clock on every add would cost more than the add itself.
constexpr std::uint32_t kClockCheckEvery = 64;

// The run row is committed at once in streaming mode, so even a capture killed
// before its first batch leaves a visible (incomplete) run.
std::int64_t start_run(const Connection& conn, const trace::RunInfo& info, bool single) {
    conn.exec("BEGIN IMMEDIATE");
    try {
        std::int64_t id = RowInserter::insert_run(conn, info);
        if (!single) conn.exec("COMMIT");
        return id;
    } catch (...) {
        conn.rollback();
        throw;
    }
}

}  // namespace

SqliteRunWriter::SqliteRunWriter(std::shared_ptr<Connection> conn, const trace::RunInfo& info,
                                 WriterOptions options, bool single_transaction,
                                 std::shared_ptr<bool> run_open)
    : conn_(std::move(conn)),
      options_(options),
      single_(single_transaction),
      run_id_(start_run(*conn_, info, single_)),
      rows_(*conn_, run_id_),
      launches_(rows_),
      summaries_(*conn_, run_id_, options.summary_width_log2),
      run_open_(std::move(run_open)),
      in_txn_(single_) {
    *run_open_ = true;
}

SqliteRunWriter::~SqliteRunWriter() {
    if (closed_) return;
    // Neither finished nor abandoned (an exception unwound the capture): keep what
    // arrived, as a kill would, but a write_run must stay all-or-nothing.
    try {
        if (single_)
            abandon();
        else
            flush();
    } catch (...) {
        conn_->rollback();
    }
    *run_open_ = false;
}

void SqliteRunWriter::check_open() const {
    if (closed_) throw StoreError(conn_->path(), "run writer used after finish() or abandon()");
}

void SqliteRunWriter::begin_batch() {
    check_open();
    if (in_txn_) return;
    conn_->exec("BEGIN IMMEDIATE");
    in_txn_ = true;
    batch_start_ = Clock::now();
}

void SqliteRunWriter::after_add() {
    if (++adds_ % kClockCheckEvery == 0) maybe_commit();
}

void SqliteRunWriter::maybe_commit() {
    if (in_txn_ && !single_ && Clock::now() - batch_start_ >= options_.commit_interval) commit();
}

void SqliteRunWriter::commit() {
    write_partial_chunks();
    conn_->exec("COMMIT");
    in_txn_ = false;
    ++committed_batches_;
}

std::uint16_t SqliteRunWriter::add_lane(const trace::Lane& lane) {
    if (lane_count_ > 0xffff) throw StoreError(conn_->path(), "more than 65536 lanes in one run");
    begin_batch();
    auto idx = static_cast<std::uint16_t>(lane_count_++);
    rows_.lane(idx, lane);
    lane_devices_.push_back(lane.device);
    after_add();
    return idx;
}

std::uint32_t SqliteRunWriter::intern(std::string_view text) {
    std::size_t before = strings_.size();
    std::uint32_t id = strings_.intern(text);
    if (strings_.size() != before) {
        begin_batch();
        rows_.string(id, text);
        after_add();
    }
    return id;
}

void SqliteRunWriter::put_string(std::uint32_t id, std::string_view text) {
    begin_batch();
    rows_.string(id, text);
}

void SqliteRunWriter::add_activity(const trace::Activity& a) {
    begin_batch();
    if (a.lane >= pending_.size()) pending_.resize(std::size_t{a.lane} + 1);
    auto& buf = pending_[a.lane];
    if (buf.capacity() == 0) buf.reserve(kChunkSize);
    buf.push_back(a);
    ++activities_;
    if (buf.size() == kChunkSize) write_chunk(a.lane);
    after_add();
}

void SqliteRunWriter::write_chunk(std::uint16_t lane) {
    auto& buf = pending_[lane];
    if (buf.empty()) return;
    // Stable, so activities with equal starts keep the order they were added in.
    if (!std::is_sorted(buf.begin(), buf.end(), trace::starts_before))
        std::stable_sort(buf.begin(), buf.end(), trace::starts_before);
    blob_.clear();
    std::int32_t device = lane < lane_devices_.size() ? lane_devices_[lane] : -1;
    ChunkBounds bounds = encode_chunk(buf, device, blob_);
    rows_.chunk(lane, bounds, static_cast<std::int64_t>(buf.size()), blob_);
    summaries_.add_chunk(lane, buf);
    buf.clear();
}

void SqliteRunWriter::write_partial_chunks() {
    for (std::size_t lane = 0; lane < pending_.size(); ++lane)
        write_chunk(static_cast<std::uint16_t>(lane));
    launches_.flush();
}

void SqliteRunWriter::add_step(const trace::Step& step) {
    begin_batch();
    rows_.step(step);
    after_add();
}

void SqliteRunWriter::add_request(const trace::Request& request) {
    begin_batch();
    rows_.request(request);
    after_add();
}

void SqliteRunWriter::add_counter(const trace::CounterSample& sample) {
    begin_batch();
    rows_.counter(sample);
    after_add();
}

void SqliteRunWriter::add_diagnostic(const trace::Diagnostic& diagnostic) {
    begin_batch();
    rows_.diagnostic(diagnostic);
    after_add();
}

void SqliteRunWriter::add_launch(const trace::KernelLaunch& launch) {
    if (launch.correlation == 0) return;  // unreachable by LaunchTable::find, so not worth storing
    begin_batch();
    launches_.add(launch);
    after_add();
}

void SqliteRunWriter::add_graph_activity(const trace::GraphActivity& graph) {
    begin_batch();
    rows_.graph(graph);
    after_add();
}

void SqliteRunWriter::update_info(const trace::RunInfo& info) {
    begin_batch();
    rows_.update_run(info);
    // Committed at once: a capture killed before its first timed commit (a long
    // prefill) must still name its backend, not read as a blank (model) run.
    if (!single_) commit();
}

void SqliteRunWriter::poll() {
    if (!closed_) maybe_commit();
}

void SqliteRunWriter::flush() {
    check_open();
    if (in_txn_ && !single_) commit();
}

void SqliteRunWriter::finish() {
    begin_batch();
    try {
        write_partial_chunks();
        summaries_.finish();
        rows_.mark_complete();
        conn_->exec("COMMIT");
    } catch (...) {
        conn_->rollback();
        in_txn_ = false;
        throw;
    }
    in_txn_ = false;
    ++committed_batches_;
    close();
}

void SqliteRunWriter::abandon() {
    if (closed_) return;
    conn_->rollback();
    in_txn_ = false;
    if (!single_) {
        conn_->exec("BEGIN IMMEDIATE");
        try {
            RowInserter::delete_run(*conn_, run_id_);
            conn_->exec("COMMIT");
        } catch (...) {
            conn_->rollback();
            throw;
        }
    }
    for (auto& buf : pending_) buf.clear();
    close();
}

void SqliteRunWriter::close() {
    closed_ = true;
    *run_open_ = false;
}

}  // namespace tokenscope::store::detail
