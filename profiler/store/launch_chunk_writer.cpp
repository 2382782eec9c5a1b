#include "launch_chunk_writer.h"

#include "row_inserter.h"

namespace tokenscope::store::detail {

void LaunchChunkWriter::add(const trace::KernelLaunch& launch) {
    if (launch.correlation == 0) return;
    const std::size_t known = configs_.configuration_count();
    const std::uint32_t config = configs_.add_config(launch);
    if (configs_.configuration_count() != known) rows_.launch_config(config, launch);
    if (pending_.capacity() == 0) pending_.reserve(kLaunchChunkSize);
    pending_.push_back({launch.correlation, config});
    if (pending_.size() == kLaunchChunkSize) flush();
}

void LaunchChunkWriter::flush() {
    if (pending_.empty()) return;
    blob_.clear();
    encode_launches(pending_, blob_);
    rows_.launch_chunk(static_cast<std::int64_t>(pending_.size()), blob_);
    pending_.clear();
}

}  // namespace tokenscope::store::detail
