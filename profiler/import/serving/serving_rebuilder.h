#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "json/tree.h"
#include "trace/run_data.h"

namespace tokenscope::import::serving {

// Rebuilds requests and steps from a parsed serving-benchmark results object.
// Problems are thrown as std::invalid_argument with the reason; the importer
// adds the file name.
class ServingRebuilder {
  public:
    explicit ServingRebuilder(json::Value root);
    trace::RunData build();

  private:
    std::vector<std::int64_t> arrivals(std::size_t n, trace::RunData& run) const;
    void add_request(std::size_t i, std::int64_t arrival, trace::RunData& run);
    json::Value array(const char* key) const;

    json::Value root_;
    // The per-request arrays, looked up once (none where missing or not an array).
    json::Value ttfts_, itls_, input_lens_, output_lens_, errors_;
    std::int64_t failed_ = 0;
    std::string first_error_;
    std::int64_t count_mismatch_ = 0;
};

}  // namespace tokenscope::import::serving
