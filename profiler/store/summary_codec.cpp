#include "summary_codec.h"

#include <algorithm>
#include <limits>

#include "varint.h"

namespace tokenscope::store::detail {
namespace {

constexpr std::size_t kMaxEncoded = 8 * 10;
constexpr std::size_t kMinEncoded = 7;  // seven one-byte varints
constexpr std::uint64_t kMaxFigure = std::numeric_limits<std::int64_t>::max();

}  // namespace

SummaryChunkBounds encode_summary_chunk(std::span<const SummaryBin> bins,
                                        std::vector<std::uint8_t>& out) {
    SummaryChunkBounds b{bins.front().bin, bins.front().bin + bins.front().repeat - 1};
    for (const SummaryBin& s : bins) {
        b.bin_min = std::min(b.bin_min, s.bin);
        b.bin_max = std::max(b.bin_max, s.bin + s.repeat - 1);
    }
    const std::size_t base = out.size();
    out.resize(base + bins.size() * kMaxEncoded);
    std::uint8_t* p = out.data() + base;
    auto prev = static_cast<std::uint64_t>(b.bin_min);
    for (const SummaryBin& s : bins) {
        // Most records stand for one bin: the repeat follows only when the low bit says so.
        const std::uint64_t delta = zigzag(static_cast<std::uint64_t>(s.bin) - prev);
        p = put_varint(p, delta << 1 | (s.repeat > 1 ? 1 : 0));
        if (s.repeat > 1) p = put_varint(p, static_cast<std::uint64_t>(s.repeat - 1));
        p = put_varint(p, static_cast<std::uint64_t>(s.busy_ns));
        p = put_varint(p, static_cast<std::uint64_t>(s.count));
        p = put_varint(p, s.longest_name);
        p = put_varint(p, static_cast<std::uint64_t>(s.longest_ns));
        p = put_varint(p, s.dominant_name);
        p = put_varint(p, static_cast<std::uint64_t>(s.dominant_ns));
        prev = static_cast<std::uint64_t>(s.bin);
    }
    out.resize(static_cast<std::size_t>(p - out.data()));
    return b;
}

bool decode_summary_chunk(std::span<const std::uint8_t> data, SummaryChunkBounds bounds,
                          std::int64_t count, std::vector<SummaryBin>& out) {
    // A corrupt count must not make us reserve gigabytes.
    if (count < 0 || static_cast<std::uint64_t>(count) > data.size() / kMinEncoded) return false;
    out.reserve(out.size() + static_cast<std::size_t>(count));
    const std::uint8_t* p = data.data();
    const std::uint8_t* end = p + data.size();
    auto bin = static_cast<std::uint64_t>(bounds.bin_min);
    for (std::int64_t i = 0; i < count; ++i) {
        std::uint64_t v[8] = {};
        if (!get_varint(p, end, v[0]) || (v[0] & 1 && !get_varint(p, end, v[1]))) return false;
        for (int f = 2; f < 8; ++f)
            if (!get_varint(p, end, v[f])) return false;
        bin += unzigzag(v[0] >> 1);
        const auto first = static_cast<std::int64_t>(bin);
        if (v[1] >= kMaxFigure || first < bounds.bin_min || first > bounds.bin_max ||
            static_cast<std::int64_t>(v[1]) > bounds.bin_max - first)
            return false;
        if (std::max({v[2], v[3], v[5], v[7]}) > kMaxFigure || v[4] > 0xffffffffu ||
            v[6] > 0xffffffffu)
            return false;
        out.push_back({first, static_cast<std::int64_t>(v[1]) + 1, static_cast<std::int64_t>(v[2]),
                       static_cast<std::int64_t>(v[3]), static_cast<std::uint32_t>(v[4]),
                       static_cast<std::int64_t>(v[5]), static_cast<std::uint32_t>(v[6]),
                       static_cast<std::int64_t>(v[7])});
    }
    return p == end;
}

}  // namespace tokenscope::store::detail
