#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tokenscope::trace {

// How much memory one import (or one opened file) may hold, fixed when the
// import starts: TOKENSCOPE_MEMORY_LIMIT when set (bytes, or with a K/M/G/T
// suffix: "512M"), otherwise three quarters of the memory the kernel reports
// available then (MemAvailable), so a file larger than memory allows is
// refused with its size before the allocations that would exhaust memory.
// Importers check their estimated working set against it before reading a
// whole document or table, and as a streamed import grows.
class MemoryBudget {
  public:
    explicit MemoryBudget(std::string path);

    std::uint64_t limit() const { return limit_; }
    // Throws FileError "PATH: WHAT needs about N MiB of memory, more than the
    // M MiB an import may use (...)" when bytes exceeds the limit.
    void require(std::uint64_t bytes, std::string_view what) const;

    static constexpr const char* kEnvironment = "TOKENSCOPE_MEMORY_LIMIT";

  private:
    std::string path_;
    std::uint64_t limit_;
    bool from_environment_;
};

struct RunData;
// What a run being built holds, roughly: its vectors' capacity and about
// kBytesPerString for each interned name.
std::uint64_t run_memory_bytes(const RunData& run);
inline constexpr std::uint64_t kBytesPerString = 128;

// "512M", "2G", "1048576" -> bytes (binary units); nullopt when malformed.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);
// MemAvailable of /proc/meminfo; physical pages where that is unreadable.
std::uint64_t available_memory_bytes();
// "1.5 GiB", "12.0 MiB", "900 KiB", "12 bytes".
std::string format_bytes(std::uint64_t bytes);

}  // namespace tokenscope::trace
