#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "query_result.h"

namespace tokenscope::fleet {

// The body was not a query_range answer; the message says what was wrong.
class ResponseError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Prometheus answered {"status":"error", "errorType": ..., "error": ...}.
class QueryError : public std::runtime_error {
  public:
    QueryError(std::string type, std::string message)
        : std::runtime_error(type.empty() ? message : type + ": " + message),
          type_(std::move(type)) {}
    const std::string& type() const { return type_; }

  private:
    std::string type_;
};

// Parses a /api/v1/query_range body (Prometheus, Thanos, Mimir, VictoriaMetrics).
// Defensive: keys in any order, unknown keys skipped, values "NaN"/"+Inf"/"-Inf"
// kept as such, a series without "values" (or with "value" only) read as far as it
// goes, points re-sorted by time if a server sent them out of order. Throws
// QueryError for an error answer and ResponseError for anything that is not a
// matrix answer (with the byte offset for malformed JSON).
QueryResult parse_query_range(std::string_view body);
// The same over a body the caller owns, read where it lies: no copy, but its capacity
// grows to simdjson's padding and bytes that are not UTF-8 become '?' in it.
QueryResult parse_query_range_in_place(std::string& body);

}  // namespace tokenscope::fleet
