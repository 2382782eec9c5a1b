#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "connection.h"
#include "launch_chunk_writer.h"
#include "row_inserter.h"
#include "run_writer.h"
#include "summary_writer.h"
#include "trace/string_table.h"

namespace tokenscope::store::detail {

// RunWriter over one SQLite connection. Activities are buffered per lane and
// written as encoded chunks of up to kChunkSize, kernel launches as chunks of their
// own (LaunchChunkWriter), and each chunk feeds the run's timeline summaries
// (SummaryWriter); other records go straight to prepared INSERTs inside the
// open transaction.
//
// Streaming mode commits at least every commit_interval while records arrive,
// flushing partial chunks first, so a killed process keeps every committed
// batch. Single-transaction mode (write_run) commits only in finish(), so the
// run appears whole or not at all.
class SqliteRunWriter final : public RunWriter {
  public:
    static constexpr std::size_t kChunkSize = 4096;

    SqliteRunWriter(std::shared_ptr<Connection> conn, const trace::RunInfo& info,
                    WriterOptions options, bool single_transaction, std::shared_ptr<bool> run_open);
    ~SqliteRunWriter() override;

    std::uint16_t add_lane(const trace::Lane& lane) override;
    std::uint32_t intern(std::string_view text) override;
    void add_activity(const trace::Activity& activity) override;
    void add_step(const trace::Step& step) override;
    void add_request(const trace::Request& request) override;
    void add_counter(const trace::CounterSample& sample) override;
    void add_diagnostic(const trace::Diagnostic& diagnostic) override;
    void add_launch(const trace::KernelLaunch& launch) override;
    void add_graph_activity(const trace::GraphActivity& graph) override;
    void update_info(const trace::RunInfo& info) override;

    void poll() override;
    void flush() override;
    void finish() override;
    void abandon() override;

    std::int64_t run_id() const override { return run_id_; }
    std::int64_t committed_batches() const override { return committed_batches_; }
    std::int64_t activities_written() const override { return activities_; }

    // Writes a string row at a fixed id (write_run keeps a RunData's ids exactly).
    void put_string(std::uint32_t id, std::string_view text);

  private:
    using Clock = std::chrono::steady_clock;

    void begin_batch();
    void after_add();
    void maybe_commit();
    void commit();
    void write_chunk(std::uint16_t lane);
    void write_partial_chunks();
    void check_open() const;
    void close();

    std::shared_ptr<Connection> conn_;
    WriterOptions options_;
    bool single_;
    std::int64_t run_id_;
    RowInserter rows_;
    LaunchChunkWriter launches_;  // refers to rows_
    SummaryWriter summaries_;     // fed every chunk as it is written
    std::shared_ptr<bool> run_open_;

    trace::StringTable strings_;
    std::uint32_t lane_count_ = 0;
    std::vector<std::vector<trace::Activity>> pending_;  // per lane, unsorted
    std::vector<std::int32_t> lane_devices_;             // chunks still store a device per activity
    std::vector<std::uint8_t> blob_;

    bool in_txn_ = false;
    bool closed_ = false;
    Clock::time_point batch_start_{};
    std::uint32_t adds_ = 0;
    std::int64_t committed_batches_ = 0;
    std::int64_t activities_ = 0;
};

}  // namespace tokenscope::store::detail
