#pragma once

#include <filesystem>
#include <string>

namespace tokenscope::store::detail {

// True when FILE-wal exists and is not empty: a writer is running, or was
// killed before its last connection checkpointed (the committed batches of a
// killed capture live there, and the main file may not even carry its
// application_id yet).
bool has_wal(const std::string& path);

// A private copy of a database and its -wal in a fresh temporary directory,
// removed again on destruction. Reading a WAL needs a -shm index beside the
// file; when the user's directory is read-only (or the -shm is), SQLite cannot
// make one, and nothing may be written next to the user's file anyway.
class WalCopy {
  public:
    explicit WalCopy(const std::string& path);
    ~WalCopy();
    WalCopy(const WalCopy&) = delete;
    WalCopy& operator=(const WalCopy&) = delete;

    const std::string& path() const { return copy_; }

  private:
    std::filesystem::path dir_;
    std::string copy_;
};

}  // namespace tokenscope::store::detail
