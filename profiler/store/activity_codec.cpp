#include "activity_codec.h"

#include <cmath>

#include "store_error.h"
#include "varint.h"

namespace tokenscope::store::detail {
namespace {

// Worst case per activity: 4 ten-byte varints, name 5, correlation 5, two bytes.
constexpr std::size_t kMaxEncoded = 4 * 10 + 5 + 5 + 2;
constexpr std::size_t kMinEncoded = 8;  // six one-byte varints and two bytes
constexpr std::uint8_t kKindCount = 7;
constexpr std::uint8_t kCopyCount = 6;

// A float can exceed 2^64 (and be NaN); the varint slot cannot.
std::uint64_t flops_to_varint(float flops) {
    constexpr float kTwoTo64 = 18446744073709551616.0f;
    if (!(flops > 0.0f)) return 0;
    float r = std::round(flops);
    if (r >= kTwoTo64) return ~std::uint64_t{0};
    return static_cast<std::uint64_t>(r);
}

}  // namespace

ChunkBounds encode_chunk(std::span<const trace::Activity> sorted, std::int32_t lane_device,
                         std::vector<std::uint8_t>& out) {
    ChunkBounds b{sorted.front().start_ns, sorted.back().start_ns, sorted.front().end_ns};
    std::size_t base = out.size();
    out.resize(base + sorted.size() * kMaxEncoded);
    std::uint8_t* p = out.data() + base;
    auto prev_start = static_cast<std::uint64_t>(b.start_min);
    std::uint32_t prev_corr = 0;
    for (const trace::Activity& a : sorted) {
        auto start = static_cast<std::uint64_t>(a.start_ns);
        p = put_varint(p, start - prev_start);
        p = put_varint(p, zigzag(static_cast<std::uint64_t>(a.end_ns) - start));
        p = put_varint(p, a.name);
        p = put_varint(p, zigzag(std::uint64_t{a.correlation} - prev_corr));
        *p++ = static_cast<std::uint8_t>(static_cast<unsigned>(a.kind) |
                                         (static_cast<unsigned>(a.copy) << 4));
        *p++ = static_cast<std::uint8_t>(lane_device);
        p = put_varint(p, a.bytes);
        p = put_varint(p, flops_to_varint(a.flops));
        prev_start = start;
        prev_corr = a.correlation;
        if (a.end_ns > b.end_max) b.end_max = a.end_ns;
    }
    out.resize(static_cast<std::size_t>(p - out.data()));
    return b;
}

bool decode_chunk(std::span<const std::uint8_t> data, std::int64_t start_min, std::uint16_t lane,
                  std::int64_t count, std::vector<trace::Activity>& out) {
    // A corrupt count must not make us reserve gigabytes.
    if (count < 0 || static_cast<std::uint64_t>(count) > data.size() / kMinEncoded) return false;
    out.reserve(out.size() + static_cast<std::size_t>(count));
    const std::uint8_t* p = data.data();
    const std::uint8_t* end = p + data.size();
    auto start = static_cast<std::uint64_t>(start_min);
    std::uint64_t corr = 0;
    for (std::int64_t i = 0; i < count; ++i) {
        std::uint64_t dstart, dur, name, dcorr, bytes, flops;
        if (!get_varint(p, end, dstart) || !get_varint(p, end, dur) || !get_varint(p, end, name) ||
            !get_varint(p, end, dcorr) || end - p < 2)
            return false;
        std::uint8_t kind = p[0] & 0x0f;
        std::uint8_t copy = p[0] >> 4;
        p += 2;  // kind|copy, then the device byte the lane supersedes
        if (!get_varint(p, end, bytes) || !get_varint(p, end, flops) || kind >= kKindCount ||
            copy >= kCopyCount || name > 0xffffffffu)
            return false;
        start += dstart;
        corr += unzigzag(dcorr);
        trace::Activity& a = out.emplace_back();
        a.start_ns = static_cast<std::int64_t>(start);
        a.end_ns = static_cast<std::int64_t>(start + unzigzag(dur));
        a.bytes = bytes;
        a.flops = static_cast<float>(flops);
        a.name = static_cast<std::uint32_t>(name);
        a.correlation = static_cast<std::uint32_t>(corr);
        a.lane = lane;
        a.kind = static_cast<trace::ActivityKind>(kind);
        a.copy = static_cast<trace::CopyKind>(copy);
    }
    return p == end;
}

void decode_chunk_or_throw(const std::string& path, std::span<const std::uint8_t> data,
                           std::int64_t start_min, std::uint16_t lane, std::int64_t count,
                           std::vector<trace::Activity>& out) {
    if (!decode_chunk(data, start_min, lane, count, out))
        throw StoreError(path,
                         "corrupt file: malformed activity chunk of lane " + std::to_string(lane));
}

}  // namespace tokenscope::store::detail
