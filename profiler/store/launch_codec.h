#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "trace/launch_table.h"

namespace tokenscope::store::detail {

// Kernel launch facts as schema 8 stores them (docs/file-format.md, launch_chunk): a
// decode uses a handful of launch configurations for millions of kernels, so each
// configuration is one launch_config row and a launch is 8 bytes of a chunk, its
// correlation and its configuration's id (little-endian uint32 each). As rows, the
// 5 million launches of the 10 M-activity bench run were half the file and most of
// the time its integrity check and its read took.
struct LaunchRef {
    std::uint32_t correlation;
    std::uint32_t config;  // launch_config.id of the run
};

inline constexpr std::size_t kLaunchBytes = 8;
// Launches per chunk: 32 KB blobs, a few hundred per million kernels.
inline constexpr std::size_t kLaunchChunkSize = 4096;

// Appends the chunk encoding of `launches` to `out`.
void encode_launches(std::span<const LaunchRef> launches, std::vector<std::uint8_t>& out);

// Appends the launches of one chunk (launch_chunk row `chunk_id`, `count` launches) to
// `table`; `configs[id]` is the table's index of launch_config `id`. A blob whose size
// is not count × 8 or a configuration id without a row makes the file corrupt: throws
// StoreError naming `path`, the chunk and the problem.
void decode_launches(std::span<const std::uint8_t> blob, std::int64_t count,
                     const std::vector<std::uint32_t>& configs, trace::LaunchTable& table,
                     const std::string& path, std::int64_t chunk_id);

}  // namespace tokenscope::store::detail
