#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::import::serving {

// Rebuilds requests and steps from a parsed serving-benchmark results object.
// Problems are thrown as std::invalid_argument with the reason; the importer
// adds the file name.
class ServingRebuilder {
  public:
    explicit ServingRebuilder(const nlohmann::json& root) : root_(root) {}
    trace::RunData build();

  private:
    std::vector<std::int64_t> arrivals(std::size_t n, trace::RunData& run) const;
    void add_request(std::size_t i, std::int64_t arrival, trace::RunData& run);
    std::string workload_json() const;
    const nlohmann::json* array(const char* key) const;

    const nlohmann::json& root_;
    std::int64_t failed_ = 0;
    std::string first_error_;
    std::int64_t count_mismatch_ = 0;
};

}  // namespace tokenscope::import::serving
