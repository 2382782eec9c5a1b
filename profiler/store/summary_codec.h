#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "timeline_summary.h"

namespace tokenscope::store::detail {

struct SummaryChunkBounds {
    std::int64_t bin_min = 0;
    std::int64_t bin_max = 0;  // the last bin a record covers, repeats included
};

// The summary_chunk.data encoding of docs/file-format.md: per record, varints of the
// zig-zag bin delta (from bin_min for the first record) shifted left by one, its low bit
// set when repeat - 1 follows; then busy, count, longest name, longest ns, dominant name,
// dominant ns. `bins` must be non-empty.
SummaryChunkBounds encode_summary_chunk(std::span<const SummaryBin> bins,
                                        std::vector<std::uint8_t>& out);

// Appends `count` records to `out`; false when the blob is malformed (a record outside
// [bin_min, bin_max], a negative figure, bytes left over).
bool decode_summary_chunk(std::span<const std::uint8_t> data, SummaryChunkBounds bounds,
                          std::int64_t count, std::vector<SummaryBin>& out);

}  // namespace tokenscope::store::detail
