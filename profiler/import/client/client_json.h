#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "json/tree.h"
#include "trace/progress.h"

namespace tokenscope::import::client {

// A whole results document (guidellm, LLMPerf, GenAI-Perf, AIPerf summaries) is
// parsed into memory; past this many decompressed bytes it is refused with a
// clear error rather than exhausting memory.
inline constexpr std::size_t kMaxDocumentBytes = std::size_t{1} << 30;
// One JSONL record longer than this is refused (a record is one request).
inline constexpr std::size_t kMaxLineBytes = std::size_t{64} << 20;

using json::Value;

// Reads and parses the file as one JSON document into `tree`; Python's NaN /
// Infinity become null. Throws ImportError naming the file.
Value read_document(const std::string& path, json::Tree& tree, const trace::ProgressFn& progress);

// A finite number at key (or the value itself when key is empty); nullopt for
// null, missing, non-numbers.
std::optional<double> number(Value j, std::string_view key);
// The member `key` of an object; none when j is not an object or has no such member.
inline Value child(Value j, std::string_view key) {
    return j.find(key);
}
// A string member as it is, another value as JSON (compact, keys sorted); empty
// for null or missing.
std::string text(Value j, std::string_view key);

// The value as nlohmann holds it, to write it back (a result's parameters into the
// workload JSON) as it was always written: nlohmann's number formats, sorted keys.
nlohmann::json to_nlohmann(Value v);

// A time already in integer ns (epoch ns reach 1.8e18, beyond a double's exact
// integers): read as an integer when the file writes one, else rounded.
std::optional<std::int64_t> integer_ns(Value j, std::string_view key);
// Seconds (or another unit) to nanoseconds; nullopt beyond int64.
std::optional<std::int64_t> to_ns(double value, double ns_per_unit);
// ns per unit for "ns", "us", "ms", "s"/"sec"; nullopt for others.
std::optional<double> ns_per_unit(std::string_view unit);
// a + b, nullopt on overflow (hostile latencies near int64's limit).
std::optional<std::int64_t> add_ns(std::int64_t a, std::int64_t b);
// A count that fits int32 (token lengths); 0 otherwise.
std::int32_t length(std::optional<double> v);

// The file `name` in the folder of `path`, when it exists as a regular file
// (a summary the tool wrote beside its per-request records).
std::optional<std::string> file_beside(const std::string& path, const std::string& name);
// A count a tool wrote, as text ("12"; any double, hostile ones too, prints).
std::string count_text(double v);
// The last component of a path.
std::string base_name(const std::string& path);

}  // namespace tokenscope::import::client
