#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "run_writer.h"
#include "trace/progress.h"
#include "trace/run_data.h"

struct sqlite3;

namespace tokenscope::store {

namespace detail {
class Connection;
}
class StoreReader;

// Opens (or creates) a .tokenscope file for writing new runs. Existing runs are
// never touched. WAL mode, so readers can open the file during a capture.
class StoreWriter {
  public:
    explicit StoreWriter(const std::string& path, WriterOptions options = {});
    ~StoreWriter();
    StoreWriter(const StoreWriter&) = delete;
    StoreWriter& operator=(const StoreWriter&) = delete;

    // Starts a run; only one run may be open at a time per StoreWriter.
    std::unique_ptr<RunWriter> begin_run(const trace::RunInfo& info);
    // Writes a whole in-memory run and returns its id. On error nothing of it remains.
    std::int64_t write_run(const trace::RunData& run, const trace::ProgressFn& progress = {});

    // Copies run `run_id` of another file into this one as a new run and returns its id,
    // streaming: its activities lane by lane and its launches chunk by chunk, so memory
    // does not grow with the run (a run larger than memory copies). The copy gets its own
    // summaries and histograms; step attribution is left to the caller. All or nothing,
    // as write_run; a damaged chunk met on the way throws StoreError naming `from`'s file.
    std::int64_t copy_run(const StoreReader& from, std::int64_t run_id,
                          const trace::ProgressFn& progress = {});

    // Puts run `run_id`'s encoded step attribution for `options` (the step_attribution
    // table, docs/file-format.md) in place of what the file held for them, in one
    // transaction: data derived from a run already written, which stays as it was.
    void write_step_attribution(std::int64_t run_id, std::string_view options,
                                const std::vector<std::vector<std::uint8_t>>& chunks);
    const std::string& path() const { return path_; }

  private:
    std::string path_;
    WriterOptions options_;
    sqlite3* db_ = nullptr;  // conn_'s handle
    // Shared with open RunWriters so a RunWriter outliving its StoreWriter stays valid.
    std::shared_ptr<detail::Connection> conn_;
    std::shared_ptr<bool> run_open_;
};

}  // namespace tokenscope::store
