#include "store/activity_codec.h"

#include <gtest/gtest.h>

#include <vector>

namespace tokenscope::store::detail {
namespace {

using trace::Activity;
using trace::ActivityKind;
using trace::CopyKind;

TEST(StoreActivityCodec, EncodesTheDocumentedBytes) {
    // Worked out by hand from docs/file-format.md.
    std::vector<Activity> chunk = {
        {1000, 1500, 300, 0, 1, 5, 4, ActivityKind::Kernel, CopyKind::None, 0},
        {1200, 1190, 0, 129, 2, 4, 4, ActivityKind::Memcpy, CopyKind::D2H, -1},
    };
    std::vector<std::uint8_t> blob;
    ChunkBounds b = encode_chunk(chunk, blob);
    EXPECT_EQ(b.start_min, 1000);
    EXPECT_EQ(b.start_max, 1200);
    EXPECT_EQ(b.end_max, 1500);
    std::vector<std::uint8_t> want = {
        0x00,        // start delta 0
        0xe8, 0x07,  // duration 500 -> zig-zag 1000
        0x01,        // name 1
        0x0a,        // correlation delta +5 -> zig-zag 10
        0x00,        // kernel | none << 4
        0x00,        // device 0
        0xac, 0x02,  // bytes 300
        0x00,        // flops 0
        0xc8, 0x01,  // start delta 200
        0x13,        // duration -10 -> zig-zag 19
        0x02,        // name 2
        0x01,        // correlation delta -1 -> zig-zag 1
        0x21,        // memcpy (1) | d2h (2) << 4
        0xff,        // device -1
        0x00,        // bytes 0
        0x81, 0x01,  // flops 129
    };
    EXPECT_EQ(blob, want);

    std::vector<Activity> back;
    ASSERT_TRUE(decode_chunk(blob, 1000, 4, 2, back));
    EXPECT_EQ(back, chunk);
}

TEST(StoreActivityCodec, RejectsMalformedBlobs) {
    std::vector<Activity> chunk = {{0, 1, 2, 3, 4, 5, 0, ActivityKind::Api, CopyKind::None, 0}};
    std::vector<std::uint8_t> blob;
    encode_chunk(chunk, blob);
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
