// The timeline summary's folding (LaneSummarizer) and chunk encoding, on activities whose
// bins are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "store/summary_codec.h"
#include "store/timeline_summary.h"

namespace tokenscope::store::detail {
namespace {

trace::Activity act(std::int64_t start, std::int64_t end, std::uint32_t name) {
    trace::Activity a;
    a.start_ns = start;
    a.end_ns = end;
    a.name = name;
    return a;
}

// Records per level, in the order the summarizer gave them.
struct Collected {
    std::map<int, std::vector<SummaryBin>> levels;
    LaneSummarizer::Sink sink() {
        return [this](int level, const SummaryBin& b) { levels[level].push_back(b); };
    }
};

TEST(SummaryWidth, AboutThirtyTwoActivitiesABinInPowersOfTwo) {
    // 4097 starts over 4096 us: 1 us apart, 32 a bin = 32 us -> 2^15 ns (32.8 us).
    EXPECT_EQ(summary_width_log2(4'096'000, 4097), 15);
    // 2 starts 10 ms apart: 320 ms a bin -> 2^29 ns (537 ms).
    EXPECT_EQ(summary_width_log2(10'000'000, 2), 29);
    EXPECT_EQ(summary_width_log2(100, 4097), 10);  // dense: the 1 us floor
    EXPECT_EQ(summary_width_log2(0, 1), 20);       // nothing to go by: 1 ms
    EXPECT_EQ(summary_width_log2(std::int64_t{1} << 62, 2), 40);
    EXPECT_EQ(summary_level_count(10), 13);  // 2^10 .. 2^46
    EXPECT_EQ(summary_level_count(20), 9);   // 2^20 .. 2^44
}

// Width 2^10 = 1024 ns. A [100,300) name 1; B [500,3000) name 2 runs through bin 1 into
// bin 2; C [2100,2200) name 3; D a marker at 5000 (bin 4), name 4.
TEST(LaneSummarizer, BinsWorkedOutByHand) {
    Collected c;
    LaneSummarizer s(10, c.sink());
    for (const auto& a :
         {act(100, 300, 1), act(500, 3000, 2), act(2100, 2200, 3), act(5000, 5000, 4)})
        s.add(a);
    s.finish();
    ASSERT_EQ(c.levels.size(), 13u);
    // bin 0: A 200 + B's 1024 - 500 = 524; bin 1 whole under B; bin 2: B's 3000 - 2048 =
    // 952 + C 100; bin 4: the marker, no time. B (2500 ns) is the longest wherever it is.
    const std::vector<SummaryBin> level0 = {{0, 1, 724, 2, 2, 2500, 2, 524},
                                            {1, 1, 1024, 0, 2, 2500, 2, 1024},
                                            {2, 1, 1052, 1, 2, 2500, 2, 952},
                                            {4, 1, 0, 1, 4, 0, 4, 0}};
    EXPECT_EQ(c.levels[0], level0);
    // Level 1 (8192 ns) and up: one bin 0 holding all: 200 + 2500 + 100 + 0 ns, B's 2500
    // the dominant name's time.
    for (int level = 1; level < 13; ++level) {
        const std::vector<SummaryBin> one = {{0, 1, 2800, 4, 2, 2500, 2, 2500}};
        EXPECT_EQ(c.levels[level], one) << level;
    }
}

// One activity of 640 bins at level 0 (2^10 ns each): its first bin and one record for
// the other 639; level 1 (2^13): 80 bins as 1 + 79; level 2 (2^16): 10 bins as 1 + 9;
// level 3 (2^19): 524288 ns in bin 0, 131072 in bin 1; level 4 and up: one bin.
TEST(LaneSummarizer, LongActivityIsAFewRecordsPerLevel) {
    Collected c;
    LaneSummarizer s(10, c.sink());
    const std::int64_t end = 640 * 1024;
    s.add(act(0, end, 7));
    s.finish();
    auto expect = [&](int level, std::vector<SummaryBin> want) {
        EXPECT_EQ(c.levels[level], want) << "level " << level;
    };
    expect(0, {{0, 1, 1024, 1, 7, end, 7, 1024}, {1, 639, 1024, 0, 7, end, 7, 1024}});
    expect(1, {{0, 1, 8192, 1, 7, end, 7, 8192}, {1, 79, 8192, 0, 7, end, 7, 8192}});
    expect(2, {{0, 1, 65536, 1, 7, end, 7, 65536}, {1, 9, 65536, 0, 7, end, 7, 65536}});
    expect(3, {{0, 1, 524288, 1, 7, end, 7, 524288}, {1, 1, 131072, 0, 7, end, 7, 131072}});
    expect(4, {{0, 1, end, 1, 7, end, 7, end}});
}

// An activity arriving after the bins it starts in were closed gets records of its own:
// here E [100, 200) after F [5000, 5100): bin 0 twice at no level, bin 0 at level 1 twice
// (F's and E's), which readers merge.
TEST(LaneSummarizer, LateActivityGetsRecordsOfItsOwn) {
    Collected c;
    LaneSummarizer s(10, c.sink());
    s.add(act(5000, 5100, 1));
    s.add(act(100, 200, 2));
    s.finish();
    const std::vector<SummaryBin> level0 = {{0, 1, 100, 1, 2, 100, 2, 100},
                                            {4, 1, 100, 1, 1, 100, 1, 100}};
    EXPECT_EQ(c.levels[0], level0);
    // Level 1: E went up at once and opened bin 0; F's bin 4 folds into it at the end.
    const std::vector<SummaryBin> level1 = {{0, 1, 200, 2, 2, 100, 2, 100}};
    EXPECT_EQ(c.levels[1], level1);
}

// Negative and overflowing durations: the bins still add up, nothing wraps.
TEST(LaneSummarizer, HostileTimesStayInTheirBins) {
    Collected c;
    LaneSummarizer s(10, c.sink());
    s.add(act(2000, 1000, 1));    // negative: a marker at 2000
    s.add(act(-5000, -4000, 2));  // late and negative
    s.add(act(std::numeric_limits<std::int64_t>::max() - 10,
              std::numeric_limits<std::int64_t>::max(), 3));
    s.finish();
    std::int64_t count = 0, busy = 0;
    for (const auto& b : c.levels[0]) count += b.count, busy += b.busy_ns * b.repeat;
    EXPECT_EQ(count, 3);
    EXPECT_EQ(busy, 1000 + 10);
}

TEST(SummaryCodec, RoundTripsAndRefusesMalformedChunks) {
    const std::vector<SummaryBin> bins = {{5, 1, 724, 2, 2, 2500, 2, 524},
                                          {6, 300, 1024, 0, 9, 1 << 20, 9, 1024},
                                          {3, 1, 0, 1, 4, 0, 4, 0}};
    std::vector<std::uint8_t> blob;
    const SummaryChunkBounds b = encode_summary_chunk(bins, blob);
    EXPECT_EQ(b.bin_min, 3);
    EXPECT_EQ(b.bin_max, 305);
    std::vector<SummaryBin> back;
    ASSERT_TRUE(decode_summary_chunk(blob, b, 3, back));
    EXPECT_EQ(back, bins);
    back.clear();
    EXPECT_FALSE(decode_summary_chunk(blob, b, 4, back));         // more records than bytes
    EXPECT_FALSE(decode_summary_chunk(blob, b, 2, back));         // bytes left over
    EXPECT_FALSE(decode_summary_chunk(blob, {3, 300}, 3, back));  // a repeat past bin_max
    EXPECT_FALSE(decode_summary_chunk(blob, {4, 305}, 3, back));  // a bin before bin_min
    std::vector<std::uint8_t> cut(blob.begin(), blob.end() - 1);
    EXPECT_FALSE(decode_summary_chunk(cut, b, 3, back));
}

}  // namespace
}  // namespace tokenscope::store::detail
