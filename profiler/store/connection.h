#pragma once

#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace tokenscope::store::detail {

// Owns one sqlite3 handle; every failure becomes a StoreError naming the file.
class Connection {
  public:
    // A read-only connection checks the file as one from elsewhere (UntrustedSqlite);
    // `checked` names the only tables its caller reads, so only those are walked.
    Connection(const std::string& path, bool read_only, std::vector<std::string> checked = {});
    // A second read-only connection to a file a first one of this process has just
    // checked (the reader's launch thread): hardened alike, not walked again.
    struct AlreadyChecked {};
    Connection(const std::string& path, AlreadyChecked);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // UntrustedSqlite's checks of a read-only connection's file, walking only `tables`
    // (all when empty): throws StoreError naming the file and the problem.
    void check(const std::vector<std::string>& tables) const;

    sqlite3* get() const { return db_; }
    const std::string& path() const { return path_; }

    void exec(const char* sql) const;
    // For best-effort statements in destructors: false instead of a throw.
    bool try_exec(const char* sql) const noexcept;
    long long last_insert_rowid() const;
    bool in_transaction() const;
    // Runs a query returning one integer (PRAGMA user_version and the like).
    long long query_int(const char* sql) const;
    // Rolls back an open transaction, ignoring errors: used while another error unwinds.
    void rollback() const noexcept;
    // fn() inside BEGIN IMMEDIATE ... COMMIT, rolled back if it throws.
    template <typename Fn>
    void write_transaction(Fn&& fn) const {
        exec("BEGIN IMMEDIATE");
        try {
            fn();
            exec("COMMIT");
        } catch (...) {
            rollback();
            throw;
        }
    }
    [[noreturn]] void fail(std::string_view what) const;

  private:
    void open(int flags);
    void guard_untrusted(const std::vector<std::string>& checked);

    std::string path_;
    sqlite3* db_ = nullptr;
};

}  // namespace tokenscope::store::detail
