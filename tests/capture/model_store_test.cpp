// The model backend through the real store: what is read back is what was simulated.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "capture/model/model_backend.h"
#include "store/store_reader.h"
#include "store/store_writer.h"

namespace tokenscope::capture {
namespace {

TEST(ModelStoreTest, RunRoundTripsThroughTheStore) {
    CaptureConfig config;
    config.model = "tiny";
    config.gpu = "H200";
    config.decode.batch = 2;
    config.decode.prompt_len = 16;
    config.decode.new_tokens = 6;
    config.decode.strategy = kernels::Strategy::Speculative;
    config.decode.draft_layers = 1;
    const auto expected = simulate_model_run(config);

    const auto path = std::filesystem::temp_directory_path() /
                      ("model_store_test_" + std::to_string(getpid()) + ".tokenscope");
    std::filesystem::remove(path);
    std::int64_t id = 0;
    {
        store::StoreWriter store(path.string());
        auto writer = store.begin_run(trace::RunInfo{});
        ModelBackend().run(config, *writer, {});
        id = writer->run_id();
    }
    store::StoreReader reader(path.string());
    auto runs = reader.runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].info.source, trace::Source::Model);
    EXPECT_TRUE(runs[0].info.complete);
    EXPECT_EQ(runs[0].step_count, 2 * 6);
    auto run = reader.load_run(id);
    EXPECT_EQ(run.info.name, expected.info.name);
    EXPECT_EQ(run.info.workload_json, expected.info.workload_json);
    ASSERT_EQ(run.activities.size(), expected.activities.size());
    EXPECT_EQ(run.steps.size(), expected.steps.size());
    EXPECT_EQ(run.requests.size(), expected.requests.size());
    EXPECT_EQ(run.lanes, expected.lanes);
    std::uint64_t bytes_a = 0, bytes_b = 0;
    for (const auto& a : run.activities) bytes_a += a.bytes;
    for (const auto& a : expected.activities) bytes_b += a.bytes;
    EXPECT_EQ(bytes_a, bytes_b);
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace tokenscope::capture
