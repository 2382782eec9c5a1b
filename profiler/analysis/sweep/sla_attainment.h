#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "trace/request.h"

namespace tokenscope::analysis {

// Either bound may be omitted (docs/sweeps.md, SLA attainment).
struct SlaBounds {
    std::optional<std::int64_t> ttft_ns;
    std::optional<std::int64_t> tpot_ns;
};

struct Attainment {
    std::int64_t requests = 0;  // failed ones included
    std::int64_t met = 0;
    double fraction = 0.0;  // met / requests; 0 with no requests
    double goodput = 0.0;   // met requests / s over first arrival .. last done; 0 if no span
};

// A request meets the SLA when it did not fail, TTFT <= the TTFT bound and TPOT <=
// the TPOT bound; a request with one output token has no TPOT and is judged on TTFT
// alone. vLLM's benchmark calls the met requests per second goodput.
bool meets_sla(const trace::Request& request, const SlaBounds& sla);
Attainment sla_attainment(const std::vector<trace::Request>& requests, const SlaBounds& sla);

}  // namespace tokenscope::analysis
