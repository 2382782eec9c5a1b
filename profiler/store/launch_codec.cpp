#include "launch_codec.h"

#include "store_error.h"

namespace tokenscope::store::detail {
namespace {

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int shift = 0; shift < 32; shift += 8)
        out.push_back(static_cast<std::uint8_t>(v >> shift));
}

std::uint32_t get_u32(const std::uint8_t* p) {
    return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
           std::uint32_t{p[3]} << 24;
}

}  // namespace

void encode_launches(std::span<const LaunchRef> launches, std::vector<std::uint8_t>& out) {
    out.reserve(out.size() + launches.size() * kLaunchBytes);
    for (const LaunchRef& l : launches) {
        put_u32(out, l.correlation);
        put_u32(out, l.config);
    }
}

void decode_launches(std::span<const std::uint8_t> blob, std::int64_t count,
                     const std::vector<std::uint32_t>& configs, trace::LaunchTable& table,
                     const std::string& path, std::int64_t chunk_id) {
    const std::string where = "corrupt file: launch_chunk " + std::to_string(chunk_id);
    if (count < 0 || blob.size() / kLaunchBytes != static_cast<std::uint64_t>(count) ||
        blob.size() % kLaunchBytes != 0)
        throw StoreError(path, where + " holds " + std::to_string(blob.size()) +
                                   " bytes for a count of " + std::to_string(count) +
                                   " launches (8 bytes each)");
    for (std::size_t at = 0; at < blob.size(); at += kLaunchBytes) {
        const std::uint32_t config = get_u32(blob.data() + at + 4);
        if (config >= configs.size())
            throw StoreError(path, where + " names launch configuration " + std::to_string(config) +
                                       ", but the run has " + std::to_string(configs.size()));
        table.add_indexed(get_u32(blob.data() + at), configs[config]);
    }
}

}  // namespace tokenscope::store::detail
