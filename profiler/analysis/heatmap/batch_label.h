#pragma once

#include <cstdint>
#include <string>

#include "trace/step.h"

namespace tokenscope::analysis {

// The whole composition, for tables and tooltips: "prefill 2 req 1536 tok, decode
// 6 req 6 tok"; counts the marker did not give are left out; "" when unknown.
std::string describe_batch(const trace::BatchComposition& batch);

// Heatmap rows by batch: iterations of one shape share a row. Decode-only and
// prefill-only iterations are keyed by their request count ("decode 32 req",
// "prefill 1 req"); iterations with both are "mixed"; steps without a known
// composition are "batch unknown". Keys sort decode, prefill, mixed, unknown,
// each by request count.
std::int64_t batch_row_key(const trace::BatchComposition& batch);
std::string batch_row_label(std::int64_t key);

}  // namespace tokenscope::analysis
