#pragma once

#include <cstdint>

namespace tokenscope::trace {

struct Request {
    std::int64_t id = 0;
    std::int64_t arrival_ns = 0;
    std::int64_t first_token_ns = 0;
    std::int64_t done_ns = 0;
    std::int32_t input_len = 0;
    std::int32_t output_len = 0;
    bool failed = false;  // serving benchmarks report failed requests; they have no tokens

    bool operator==(const Request&) const = default;
};

}  // namespace tokenscope::trace
