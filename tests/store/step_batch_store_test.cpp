// Store schema 5: an engine iteration's batch composition is kept with its step,
// and files of version 4 (no batch columns) still open, migrated or read as they are.
// Schema 9: the key tokens of the composition and the end of the iteration's marker.
#include <gtest/gtest.h>

#include "store/schema.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"
#include "support/old_store.h"

namespace tokenscope::store {
namespace {

using test::TempDir;
using tokenscope::test::downgrade_store;

trace::RunData iteration_run() {
    trace::RunData run = test::sample_run("engine", 7);
    trace::Step prefill{0, 0, trace::Phase::Prefill, 100, 900, 0};
    prefill.batch = {2, 1536, 6, 6};
    trace::Step decode{0, 1, trace::Phase::Iteration, 900, 1400, 0};
    decode.batch = {0, -1, 32, -1};  // TensorRT-LLM gives no token counts
    trace::Step graph{0, 2, trace::Phase::Iteration, 1500, 19000, 0};
    graph.batch = {0, 0, 32, 32, 0, 55086};  // vLLM's execute_32_context_0(sq0sk0…)…
    graph.marker_end_ns = 3900;              // its graph ran on after the marker
    run.steps = {prefill, decode, graph};
    return run;
}

}  // namespace

TEST(StoreStepBatch, CompositionRoundTrips) {
    TempDir dir;
    std::string path = dir.file("batch.tokenscope");
    trace::RunData run = iteration_run();
    std::int64_t id = StoreWriter(path).write_run(run);
    StoreReader reader(path);
    trace::RunData got = reader.load_run(id);
    ASSERT_EQ(got.steps.size(), 3u);
    EXPECT_EQ(got.steps[0].batch, (trace::BatchComposition{2, 1536, 6, 6}));
    EXPECT_EQ(got.steps[1].batch, (trace::BatchComposition{0, -1, 32, -1}));
    EXPECT_EQ(got.steps[0].phase, trace::Phase::Prefill);
    EXPECT_EQ(got.steps[2].batch.decode_key_tokens, 55086);
    EXPECT_EQ(got.steps[2].marker_end_ns, 3900);
    EXPECT_EQ(got.steps[0].marker_end_ns, 0);
    std::vector<trace::Step> streamed;
    reader.for_each_step(id, std::nullopt, [&](const trace::Step& s) { streamed.push_back(s); });
    EXPECT_EQ(streamed, got.steps);
}

TEST(StoreStepBatch, Version4FileMigratesAndItsStepsHaveNoComposition) {
    TempDir dir;
    std::string path = dir.file("v4.tokenscope");
    trace::RunData run = iteration_run();
    std::int64_t id = StoreWriter(path).write_run(run);
    downgrade_store(path, 4);  // no batch columns
    StoreReader reader(path);
    EXPECT_EQ(reader.schema_version(), kSchemaVersion);
    trace::RunData got = reader.load_run(id);
    ASSERT_EQ(got.steps.size(), 3u);
    EXPECT_FALSE(got.steps[0].batch.known());
    EXPECT_EQ(got.steps[0].start_ns, 100);
    EXPECT_EQ(got.steps[1].end_ns, 1400);
    // New steps in the migrated file keep theirs.
    std::int64_t fresh = StoreWriter(path).write_run(iteration_run());
    EXPECT_EQ(StoreReader(path).load_run(fresh).steps[1].batch.decode_requests, 32);
}

TEST(StoreStepBatch, Version8FileMigratesAndItsStepsHaveNoMarkerEnd) {
    TempDir dir;
    std::string path = dir.file("v8.tokenscope");
    std::int64_t id = StoreWriter(path).write_run(iteration_run());
    downgrade_store(path, 8);  // no key tokens, no marker end
    StoreReader reader(path);
    EXPECT_EQ(reader.schema_version(), kSchemaVersion);
    trace::RunData got = reader.load_run(id);
    ASSERT_EQ(got.steps.size(), 3u);
    EXPECT_EQ(got.steps[2].batch, (trace::BatchComposition{0, 0, 32, 32}));  // keys unknown
    EXPECT_EQ(got.steps[2].marker_end_ns, 0);
    EXPECT_EQ(got.steps[2].end_ns, 19000);
}
}  // namespace tokenscope::store
