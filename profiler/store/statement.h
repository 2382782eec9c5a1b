#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

struct sqlite3_stmt;

namespace tokenscope::store::detail {

class Connection;

// A prepared statement, reused across rows: bind, step, reset.
class Statement {
  public:
    Statement(const Connection& conn, const char* sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind_int(int i, std::int64_t v);
    // Binds NULL where v is empty.
    Statement& bind_optional(int i, std::optional<std::int64_t> v);
    Statement& bind_real(int i, double v);
    // Text and blobs must outlive the next step(): nothing is copied.
    Statement& bind_text(int i, std::string_view v);
    Statement& bind_blob(int i, std::span<const std::uint8_t> v);

    // True while a row is available; throws on error.
    bool step();
    // Steps a statement that returns no rows, then resets it for reuse.
    void run();
    void reset();

    std::int64_t int64(int col) const;
    // Empty for a NULL column.
    std::optional<std::int64_t> optional_int64(int col) const;
    double real(int col) const;
    std::string_view text(int col) const;
    std::span<const std::uint8_t> blob(int col) const;

  private:
    const Connection& conn_;
    sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace tokenscope::store::detail
