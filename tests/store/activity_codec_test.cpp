#include "store/activity_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace tokenscope::store::detail {
namespace {

using trace::Activity;
using trace::ActivityKind;
using trace::CopyKind;

TEST(StoreActivityCodec, EncodesTheDocumentedBytes) {
    // Worked out by hand from docs/file-format.md.
    std::vector<Activity> chunk = {
        {1000, 1500, 300, 0, 1, 5, 4, ActivityKind::Kernel, CopyKind::None},
        {1200, 1190, 0, 129, 2, 4, 4, ActivityKind::Memcpy, CopyKind::D2H},
    };
    std::vector<std::uint8_t> blob;
    ChunkBounds b = encode_chunk(chunk, 0, blob);
    EXPECT_EQ(b.start_min, 1000);
    EXPECT_EQ(b.start_max, 1200);
    EXPECT_EQ(b.end_max, 1500);
    std::vector<std::uint8_t> want = {
        0x00,        // start delta 0
        0xe8, 0x07,  // duration 500 -> zig-zag 1000
        0x01,        // name 1
        0x0a,        // correlation delta +5 -> zig-zag 10
        0x00,        // kernel | none << 4
        0x00,        // device 0 (the lane's)
        0xac, 0x02,  // bytes 300
        0x00,        // flops 0
        0xc8, 0x01,  // start delta 200
        0x13,        // duration -10 -> zig-zag 19
        0x02,        // name 2
        0x01,        // correlation delta -1 -> zig-zag 1
        0x21,        // memcpy (1) | d2h (2) << 4
        0x00,        // device 0 (the lane's)
        0x00,        // bytes 0
        0x81, 0x01,  // flops 129
    };
    EXPECT_EQ(blob, want);

    std::vector<Activity> back;
    ASSERT_TRUE(decode_chunk(blob, 1000, 4, 2, back));
    EXPECT_EQ(back, chunk);
}

TEST(StoreActivityCodec, EveryActivityGetsTheLaneDeviceByte) {
    std::vector<Activity> chunk = {{0, 1, 0, 0, 1, 0, 0, ActivityKind::Api, CopyKind::None},
                                   {0, 1, 0, 0, 1, 0, 0, ActivityKind::Api, CopyKind::None}};
    std::vector<std::uint8_t> host, gpu;
    encode_chunk(chunk, -1, host);
    encode_chunk(chunk, 5, gpu);
    // Per activity: start delta, duration 1 (zig-zag 2), name, correlation, kind, device,
    // bytes, flops: the device byte is the sixth of each eight.
    std::vector<std::uint8_t> want_host = {0, 2, 1, 0, 3, 0xff, 0, 0, 0, 2, 1, 0, 3, 0xff, 0, 0};
    std::vector<std::uint8_t> want_gpu = {0, 2, 1, 0, 3, 5, 0, 0, 0, 2, 1, 0, 3, 5, 0, 0};
    EXPECT_EQ(host, want_host);
    EXPECT_EQ(gpu, want_gpu);
}

// The blob of one API activity with the given flops; returns the flops varint bytes.
std::vector<std::uint8_t> flops_bytes(float flops) {
    std::vector<Activity> chunk = {{0, 0, 0, flops, 0, 0, 0, ActivityKind::Api, CopyKind::None}};
    std::vector<std::uint8_t> blob;
    encode_chunk(chunk, -1, blob);
    // start, duration, name, correlation, kind, device, bytes: seven one-byte fields.
    return {blob.begin() + 7, blob.end()};
}

TEST(StoreActivityCodec, FlopsAreRoundedAndClampedToTheIntegerVarint) {
    using Bytes = std::vector<std::uint8_t>;
    EXPECT_EQ(flops_bytes(2.4f), (Bytes{0x02}));
    EXPECT_EQ(flops_bytes(2.6f), (Bytes{0x03}));
    EXPECT_EQ(flops_bytes(300.5f), (Bytes{0xad, 0x02}));  // half away from zero: 301
    EXPECT_EQ(flops_bytes(-7.0f), (Bytes{0x00}));
    EXPECT_EQ(flops_bytes(std::numeric_limits<float>::quiet_NaN()), (Bytes{0x00}));
    // 2^64-1 as ten varint bytes: nine 0xff then 0x01.
    const Bytes max64 = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    EXPECT_EQ(flops_bytes(1e30f), max64);
    EXPECT_EQ(flops_bytes(std::numeric_limits<float>::infinity()), max64);
    EXPECT_EQ(flops_bytes(18446744073709551616.0f), max64);  // exactly 2^64
    // 2^40: five empty 7-bit groups, then bit 40 is bit 5 of the sixth.
    EXPECT_EQ(flops_bytes(1099511627776.0f), (Bytes{0x80, 0x80, 0x80, 0x80, 0x80, 0x20}));
}

TEST(StoreActivityCodec, OldDeviceBytesAndHugeFlopsDecode) {
    // An activity as an old writer stored it: device byte 7 (ignored now) and
    // flops 2^63 + 1, which a float holds as 2^63.
    std::vector<std::uint8_t> blob = {0x00, 0x04, 0x01, 0x00, 0x00, 0x07, 0x00, 0x81, 0x80,
                                      0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    std::vector<Activity> out;
    ASSERT_TRUE(decode_chunk(blob, 50, 2, 1, out));
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].start_ns, 50);
    EXPECT_EQ(out[0].end_ns, 52);
    EXPECT_EQ(out[0].lane, 2);
    EXPECT_EQ(out[0].flops, 9223372036854775808.0f);
}

TEST(StoreActivityCodec, RejectsMalformedBlobs) {
    std::vector<Activity> chunk = {{0, 1, 2, 3, 4, 5, 0, ActivityKind::Api, CopyKind::None}};
    std::vector<std::uint8_t> blob;
    encode_chunk(chunk, 0, blob);
    std::vector<Activity> out;
    EXPECT_FALSE(decode_chunk(blob, 0, 0, 2, out));  // count larger than the data
    std::vector<std::uint8_t> cut(blob.begin(), blob.end() - 1);
    EXPECT_FALSE(decode_chunk(cut, 0, 0, 1, out));  // truncated
    std::vector<std::uint8_t> bad_kind = blob;
    ASSERT_EQ(bad_kind[4], 0x03);  // start, duration, name, correlation, then api (3)
    bad_kind[4] = 0x07;            // kind 7 does not exist
    EXPECT_FALSE(decode_chunk(bad_kind, 0, 0, 1, out));
    std::vector<std::uint8_t> trailing = blob;
    trailing.push_back(0);
    EXPECT_FALSE(decode_chunk(trailing, 0, 0, 1, out));
    std::vector<std::uint8_t> endless(20, 0xff);  // a varint that never ends
    EXPECT_FALSE(decode_chunk(endless, 0, 0, 1, out));
}

}  // namespace
}  // namespace tokenscope::store::detail
