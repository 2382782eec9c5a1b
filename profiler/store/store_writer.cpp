#include "store_writer.h"

#include "connection.h"
#include "file_probe.h"
#include "schema.h"
#include "sqlite_run_writer.h"
#include "statement.h"
#include "store_error.h"
#include "write_progress.h"

#include <fcntl.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

namespace tokenscope::store {
namespace {

void write_records(detail::SqliteRunWriter& w, const trace::RunData& run,
                   detail::WriteProgress& pc) {
    for (const auto& lane : run.lanes) w.add_lane(lane);
    for (std::uint32_t id = 1; id < run.strings.size(); ++id) w.put_string(id, run.strings.str(id));
    for (const auto& a : run.activities) {
        w.add_activity(a);
        pc.tick();
    }
    for (const auto& s : run.steps) {
        w.add_step(s);
        pc.tick();
    }
    for (const auto& r : run.requests) {
        w.add_request(r);
        pc.tick();
    }
    for (const auto& c : run.counters) {
        w.add_counter(c);
        pc.tick();
    }
    for (const auto& d : run.diagnostics) w.add_diagnostic(d);
    for (const auto& l : run.launches) {
        w.add_launch(l);
        pc.tick();
    }
    for (std::size_t i = 0; i < run.graphs.size(); ++i) {
        w.add_graph_activity(run.graphs.at(i));
        pc.tick();
    }
}

// A new file gets its schema before it gets its name: the schema is written to a
// sibling file that is then renamed into place, so a capture killed in its first
// milliseconds leaves no file or a Tokenscope file, never an SQLite file without
// tables that no opener recognises. The sibling sits in the same directory, so
// the rename is atomic, and RENAME_NOREPLACE refuses to replace a file another
// writer made meanwhile (that file is then opened as it is).
void create_with_schema(const std::string& path) {
    const std::string creating = path + ".creating";
    std::error_code ec;
    // Left by a capture killed while making it; a stale -wal would be replayed into
    // the new file.
    auto remove_sibling = [&] {
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            std::filesystem::remove(creating + suffix, ec);
    };
    remove_sibling();
    try {
        detail::Connection conn(creating, /*read_only=*/false);
        detail::create_schema(conn);
        // Switched to WAL before it has its name: switching later is a rollback-
        // journal transaction, and a capture killed inside it leaves a hot journal.
        conn.exec("PRAGMA journal_mode = WAL");
    } catch (const StoreError& e) {
        remove_sibling();
        throw StoreError(path, e.problem());  // the user's name, not the sibling's
    }
    if (::renameat2(AT_FDCWD, creating.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0)
        return;
    if (errno == EINVAL || errno == ENOSYS) {
        // A filesystem without RENAME_NOREPLACE: only the existence check guards.
        if (!std::filesystem::exists(path, ec)) std::filesystem::rename(creating, path, ec);
        if (ec) throw StoreError(path, "cannot create the file: " + ec.message());
    }
    std::filesystem::remove(creating, ec);  // EEXIST: another writer's file stands
}

}  // namespace

StoreWriter::StoreWriter(const std::string& path, WriterOptions options)
    : path_(path), options_(options), run_open_(std::make_shared<bool>(false)) {
    detail::probe_file(path, /*allow_missing=*/true);
    if (!std::filesystem::exists(path)) create_with_schema(path);
    conn_ = std::make_shared<detail::Connection>(path, /*read_only=*/false);
    db_ = conn_->get();
    int version = detail::check_identity(*conn_);
    // WAL lets readers open the file during a capture; NORMAL sync keeps commits
    // cheap while a crash can still only lose the last batches, never corrupt.
    conn_->exec("PRAGMA journal_mode = WAL");
    conn_->exec("PRAGMA synchronous = NORMAL");
    if (version == 0)
        detail::create_schema(*conn_);
    else if (version < kSchemaVersion)
        detail::migrate(*conn_);
}

StoreWriter::~StoreWriter() {
    // Back to a rollback journal once nobody writes, so a finished file is one
    // self-contained file that opens from read-only media. Fails harmlessly
    // (file stays WAL) while a RunWriter or another process still uses it.
    if (conn_.use_count() == 1) conn_->try_exec("PRAGMA journal_mode = DELETE");
}

void StoreWriter::write_step_attribution(std::int64_t run_id, std::string_view options,
                                         const std::vector<std::vector<std::uint8_t>>& chunks) {
    if (*run_open_) throw StoreError(path_, "a run is being written by this StoreWriter");
    conn_->write_transaction([&] {
        detail::Statement known(*conn_, "SELECT count(*) FROM run WHERE id = ?1");
        known.bind_int(1, run_id);
        if (!known.step() || known.int64(0) == 0)
            throw StoreError(path_, "no run " + std::to_string(run_id) + " to attribute");
        detail::create_step_attribution_table(*conn_);
        detail::Statement drop(*conn_,
                               "DELETE FROM step_attribution WHERE run_id = ?1 AND options = ?2");
        drop.bind_int(1, run_id).bind_text(2, options).run();
        detail::Statement put(*conn_, "INSERT INTO step_attribution VALUES (?1, ?2, ?3, ?4)");
        for (std::size_t k = 0; k < chunks.size(); ++k) {
            put.bind_int(1, run_id)
                .bind_text(2, options)
                .bind_int(3, static_cast<std::int64_t>(k))
                .bind_blob(4, chunks[k])
                .run();
        }
    });
}

std::unique_ptr<RunWriter> StoreWriter::begin_run(const trace::RunInfo& info) {
    if (*run_open_) throw StoreError(path_, "a run is already being written by this StoreWriter");
    return std::make_unique<detail::SqliteRunWriter>(conn_, info, options_, false, run_open_);
}

std::int64_t StoreWriter::write_run(const trace::RunData& run, const trace::ProgressFn& progress) {
    if (*run_open_) throw StoreError(path_, "a run is already being written by this StoreWriter");
    std::int64_t total =
        static_cast<std::int64_t>(run.activities.size() + run.steps.size() + run.requests.size() +
                                  run.counters.size() + run.launches.size() + run.graphs.size());
    detail::WriteProgress pc(progress, total);
    pc.report();
    detail::SqliteRunWriter w(conn_, run.info, options_, true, run_open_);
    try {
        write_records(w, run, pc);
        w.finish();
    } catch (...) {
        w.abandon();
        throw;
    }
    if (progress) progress(total, total);
    return w.run_id();
}

}  // namespace tokenscope::store
