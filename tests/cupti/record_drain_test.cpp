// The writer path without a GPU: buffer pool reuse and limits, the queue, and the
// writer thread decoding queued buffers into the RunWriter.
#include "capture/cupti/record_drain.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "capture/memory_run_writer.h"
#include "cupti_records.h"

namespace tokenscope::capture::cupti {
namespace {

using namespace records;

TEST(BufferPoolTest, ReusesBuffersAndRefusesBeyondItsLimit) {
    BufferPool pool(1024, 2, 1);
    EXPECT_EQ(pool.allocated(), 1u);
    std::uint8_t* a = pool.acquire();
    std::uint8_t* b = pool.acquire();
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_NE(a, b);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 8, 0u);
    EXPECT_EQ(pool.allocated(), 2u);
    EXPECT_EQ(pool.acquire(), nullptr);
    EXPECT_EQ(pool.refused(), 1u);
    pool.release(a);
    EXPECT_EQ(pool.acquire(), a);  // the same memory again, no new allocation
    EXPECT_EQ(pool.allocated(), 2u);
    EXPECT_THROW(BufferPool(0, 1), std::invalid_argument);
}

TEST(BufferQueueTest, PopTimesOutThenDrainsAfterClose) {
    BufferQueue queue;
    EXPECT_FALSE(queue.pop(std::chrono::milliseconds(1)).has_value());
    std::uint8_t x = 0;
    queue.push({&x, 5});
    queue.close();
    EXPECT_FALSE(queue.closed_and_empty());
    auto b = queue.pop(std::chrono::milliseconds(1));
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(b->data, &x);
    EXPECT_EQ(b->valid_bytes, 5u);
    EXPECT_TRUE(queue.closed_and_empty());
}

TEST(RecordDrainTest, WriterThreadDecodesEveryQueuedBufferAndReturnsIt) {
    MemoryRunWriter writer;
    BufferPool pool(4096, 4, 4);
    BufferQueue queue;
    RecordDecoder decoder(writer, DecoderOptions{"", false, 1});
    std::atomic<int> ticks{0};
    RecordDrain drain(
        queue, pool, decoder, writer, [&] { ++ticks; }, std::chrono::milliseconds(1));
    drain.start();
    std::uint32_t corr = 0;
    for (int b = 0; b < 3; ++b) {
        BufferBuilder records;
        for (int i = 0; i < 10; ++i) {
            ++corr;
            records.add(kernel(1000 * corr, 1000 * corr + 500, 7, corr, "k"));
        }
        std::uint8_t* buffer = pool.acquire();
        ASSERT_NE(buffer, nullptr);
        std::memcpy(buffer, records.data(), records.size());
        queue.push({buffer, records.size()});
    }
    drain.stop();
    EXPECT_EQ(drain.buffers(), 3);
    EXPECT_EQ(drain.records(), 30);
    EXPECT_GE(ticks.load(), 1);
    ASSERT_EQ(writer.data().activities.size(), 30u);
    std::int64_t sum = 0;
    for (const auto& a : writer.data().activities) sum += a.correlation;
    EXPECT_EQ(sum, 30 * 31 / 2);
    // All four buffers are free again: four acquires succeed without growing the pool.
    for (int i = 0; i < 4; ++i) EXPECT_NE(pool.acquire(), nullptr);
    EXPECT_EQ(pool.allocated(), 4u);
}

// A writer whose disk fills up: the failure surfaces from stop(), buffers still return.
class FailingWriter : public MemoryRunWriter {
  public:
    void add_activity(const trace::Activity&) override { throw std::runtime_error("disk full"); }
};

TEST(RecordDrainTest, WriterFailureIsRethrownFromStop) {
    FailingWriter writer;
    BufferPool pool(4096, 2, 2);
    BufferQueue queue;
    RecordDecoder decoder(writer);
    RecordDrain drain(queue, pool, decoder, writer, {}, std::chrono::milliseconds(1));
    drain.start();
    for (int b = 0; b < 2; ++b) {
        BufferBuilder records;
        records.add(kernel(100, 200, 7, 1, "k"));
        std::uint8_t* buffer = pool.acquire();
        std::memcpy(buffer, records.data(), records.size());
        queue.push({buffer, records.size()});
    }
    EXPECT_THROW(drain.stop(), std::runtime_error);
    EXPECT_EQ(drain.buffers(), 2);
    EXPECT_NE(pool.acquire(), nullptr);
    EXPECT_NE(pool.acquire(), nullptr);
}

}  // namespace
}  // namespace tokenscope::capture::cupti
