#pragma once
// LEB128 varints and zig-zag, as the store's chunk encodings write them
// (docs/file-format.md): activity chunks and timeline summary chunks.
#include <cstdint>

namespace tokenscope::store::detail {

// Differences are taken in uint64 so any pair of int64 values round-trips, even
// when the true difference overflows (start near 2^62, end negative).
inline std::uint64_t zigzag(std::uint64_t wrapped_diff) {
    auto x = static_cast<std::int64_t>(wrapped_diff);
    return (wrapped_diff << 1) ^ static_cast<std::uint64_t>(x >> 63);
}

inline std::uint64_t unzigzag(std::uint64_t u) {
    return (u >> 1) ^ (~(u & 1) + 1);
}

inline std::uint8_t* put_varint(std::uint8_t* p, std::uint64_t v) {
    while (v >= 0x80) {
        *p++ = static_cast<std::uint8_t>(v | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<std::uint8_t>(v);
    return p;
}

// False (p left anywhere up to end) when the bytes run out or the varint is over 10 bytes.
inline bool get_varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& v) {
    if (p < end && *p < 0x80) [[likely]] {
        v = *p++;
        return true;
    }
    std::uint64_t r = 0;
    for (int shift = 0; p < end && shift < 64; shift += 7) {
        std::uint8_t b = *p++;
        r |= std::uint64_t{b & 0x7fu} << shift;
        if (b < 0x80) {
            v = r;
            return true;
        }
    }
    return false;
}

}  // namespace tokenscope::store::detail
