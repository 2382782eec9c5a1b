#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "trace/activity.h"

namespace tokenscope::store::detail {

struct ChunkBounds {
    std::int64_t start_min = 0;
    std::int64_t start_max = 0;
    std::int64_t end_max = 0;
};

// The activity_chunk.data encoding of docs/file-format.md: per activity, varints of
// start delta, zig-zag duration, name, zig-zag correlation delta, then a kind|copy
// byte, a device byte, and varints of bytes and flops. `sorted` must be sorted by
// start and non-empty; the lane is a column of the chunk row, not in the blob.
// Activities no longer carry a device, but the slot stays (schema v2 readers expect
// it): every activity gets `lane_device`. FLOPs are rounded and clamped to
// [0, 2^64-1] because the format stores them as an integer varint.
ChunkBounds encode_chunk(std::span<const trace::Activity> sorted, std::int32_t lane_device,
                         std::vector<std::uint8_t>& out);

// Appends `count` activities to `out`; false when the blob is malformed. The stored
// device bytes are skipped: the lane's device is authoritative.
bool decode_chunk(std::span<const std::uint8_t> data, std::int64_t start_min, std::uint16_t lane,
                  std::int64_t count, std::vector<trace::Activity>& out);
// decode_chunk, or a StoreError naming the file (`path`) and the lane when the blob is
// malformed: what every reader of activity chunks says of a damaged one.
void decode_chunk_or_throw(const std::string& path, std::span<const std::uint8_t> data,
                           std::int64_t start_min, std::uint16_t lane, std::int64_t count,
                           std::vector<trace::Activity>& out);

}  // namespace tokenscope::store::detail
