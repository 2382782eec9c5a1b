#pragma once

#include <filesystem>
#include <string>

namespace tokenscope::store::detail {

// Recovery of a killed capture (docs/hostile-input.md): what a writer killed mid-run
// left beside its file (a write-ahead log, a hot journal) is recovered in a private
// copy, so a read-only open sees every batch it committed.

// True when FILE-wal exists and is not empty: a writer is running, or was
// killed before its last connection checkpointed (the committed batches of a
// killed capture live there, and the main file may not even carry its
// application_id yet).
bool has_wal(const std::string& path);

// True when a writer left something SQLite must recover before a reader sees the
// file as committed: a -wal (any size: its -shm may need rebuilding) or a hot
// rollback journal (a process killed inside a transaction, e.g. while it switched
// the file to WAL). A read-only connection cannot do either recovery in place
// ("attempt to write a readonly database"), so the reader works on a RecoveredCopy.
bool needs_recovery(const std::string& path);
// True when FILE-journal exists and is not empty.
bool has_hot_journal(const std::string& path);

// A private copy of a database with its -wal and hot journal in a fresh temporary
// directory, recovered there (the WAL indexed, a hot journal rolled back) and
// removed again on destruction. Reading a WAL needs a -shm index beside the file,
// and a hot journal must be rolled back; when the user's directory is read-only
// (or the -shm is), SQLite cannot do either, and nothing may be written next to
// the user's file anyway.
class RecoveredCopy {
  public:
    explicit RecoveredCopy(const std::string& path);
    ~RecoveredCopy();
    RecoveredCopy(const RecoveredCopy&) = delete;
    RecoveredCopy& operator=(const RecoveredCopy&) = delete;

    const std::string& path() const { return copy_; }

  private:
    std::filesystem::path dir_;
    std::string copy_;
};

}  // namespace tokenscope::store::detail
