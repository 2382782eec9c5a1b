// The model run's header, requests, synchronisation and error handling.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "capture/backend_registry.h"
#include "capture/gpu_presets.h"
#include "capture/memory_run_writer.h"
#include "capture/model/model_backend.h"
#include "capture/model/model_simulator.h"

namespace tokenscope::capture {
namespace {

using trace::ActivityKind;

CaptureConfig tiny_config() {
    CaptureConfig c;
    c.model = "tiny";
    c.gpu = "A100-80GB";
    c.decode.batch = 2;
    c.decode.prompt_len = 32;
    c.decode.new_tokens = 5;
    c.decode.strategy = kernels::Strategy::TopK;
    c.decode.top_k = 8;
    return c;
}

TEST(ModelRunTest, HeaderSaysItIsAModel) {
    auto run = simulate_model_run(tiny_config());
    EXPECT_EQ(run.info.source, trace::Source::Model);
    EXPECT_TRUE(run.info.is_model());
    EXPECT_TRUE(run.info.complete);
    EXPECT_EQ(run.info.name, "model tiny on A100-80GB (model)");
    EXPECT_EQ(run.info.gpu, *find_gpu_preset("A100-80GB"));
    EXPECT_FALSE(run.info.host.empty());
    EXPECT_GT(run.info.created_ns, 1600000000LL * 1000000000LL);  // after 2020
    auto j = nlohmann::json::parse(run.info.workload_json);
    EXPECT_EQ(j["model"]["layers"], 4);
    EXPECT_EQ(j["model"]["dtype"], "fp16");
    EXPECT_EQ(j["decode"]["strategy"], "topk");
    EXPECT_EQ(j["decode"]["top_k"], 8);
    EXPECT_EQ(j["gpu"], "A100-80GB");
    EXPECT_DOUBLE_EQ(j["jitter"]["kernel_mean"].get<double>(), 0.03);
    EXPECT_DOUBLE_EQ(j["jitter"]["hiccup_probability"].get<double>(), 0.02);
    ASSERT_EQ(run.diagnostics.size(), 1u);
    EXPECT_EQ(run.diagnostics[0].name, "model_run");
    EXPECT_EQ(run.diagnostics[0].severity, trace::Severity::Info);
    EXPECT_NE(run.diagnostics[0].text.find("not measured"), std::string::npos);
}

TEST(ModelRunTest, LanesAndRequests) {
    auto run = simulate_model_run(tiny_config());
    ASSERT_EQ(run.lanes.size(), 4u);
    EXPECT_EQ(run.lanes[0].kind, trace::LaneKind::CpuThread);
    EXPECT_EQ(run.lanes[1].kind, trace::LaneKind::GpuStream);
    EXPECT_EQ(run.lanes[2].kind, trace::LaneKind::CopyEngine);
    EXPECT_EQ(run.lanes[3].kind, trace::LaneKind::StepTrack);
    ASSERT_EQ(run.requests.size(), 2u);
    for (const auto& r : run.requests) {
        EXPECT_EQ(r.arrival_ns, ModelSimulator::kRunStartNs);
        EXPECT_EQ(r.input_len, 32);
        EXPECT_EQ(r.output_len, 5);
        std::int64_t first = -1, last = -1;
        for (const auto& s : run.steps) {
            if (s.request != r.id) continue;
            if (s.index == 0) first = s.end_ns;
            last = std::max(last, s.end_ns);
        }
        EXPECT_EQ(r.first_token_ns, first);
        EXPECT_EQ(r.done_ns, last);
        EXPECT_LT(r.arrival_ns, r.first_token_ns);
    }
}

TEST(ModelRunTest, TokensAreEmittedWhenTheSynchronizeReturns) {
    auto run = simulate_model_run(tiny_config());
    std::vector<trace::Activity> syncs, downloads, ranges;
    for (const auto& a : run.activities) {
        if (a.kind == ActivityKind::Sync) syncs.push_back(a);
        if (a.kind == ActivityKind::Memcpy && a.copy == trace::CopyKind::D2H)
            downloads.push_back(a);
        if (a.kind == ActivityKind::Range) ranges.push_back(a);
    }
    ASSERT_EQ(syncs.size(), 5u);  // one iteration per token
    ASSERT_EQ(downloads.size(), 5u);
    for (std::size_t i = 0; i < syncs.size(); ++i) {
        EXPECT_EQ(run.name_of(syncs[i]), "cudaStreamSynchronize");
        EXPECT_GE(syncs[i].end_ns, downloads[i].end_ns);
        EXPECT_EQ(ranges[i].end_ns, syncs[i].end_ns);
        EXPECT_EQ(downloads[i].bytes, 2u * 4u);  // two int32 ids
        for (const auto& s : run.steps)
            if (s.index == static_cast<int>(i)) {
                EXPECT_EQ(s.end_ns, syncs[i].end_ns);
            }
    }
    // Prefill: both requests' 32 prompt ids go up first.
    auto uploads = std::count_if(run.activities.begin(), run.activities.end(), [](auto& a) {
        return a.kind == ActivityKind::Memcpy && a.copy == trace::CopyKind::H2D && a.bytes == 256;
    });
    EXPECT_EQ(uploads, 1);
}

TEST(ModelRunTest, BadConfigurationAbandonsTheWriter) {
    auto config = tiny_config();
    config.gpu = "H300";
    MemoryRunWriter writer;
    try {
        ModelBackend().run(config, writer, {});
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("H300"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("L40S"), std::string::npos);  // lists the known
    }
    EXPECT_TRUE(writer.abandoned());
    config = tiny_config();
    config.decode.new_tokens = 0;
    EXPECT_THROW(simulate_model_run(config), std::invalid_argument);
    config = tiny_config();
    config.model = "gpt-5";
    EXPECT_THROW(simulate_model_run(config), std::invalid_argument);
}

TEST(ModelRunTest, ProgressCountsIterationsAndCancels) {
    std::vector<std::int64_t> done;
    auto run = simulate_model_run(tiny_config(), [&](std::int64_t d, std::int64_t total) {
        EXPECT_EQ(total, 5);
        done.push_back(d);
        return true;
    });
    EXPECT_EQ(done, (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
    MemoryRunWriter writer;
    auto cancel_at_2 = [](std::int64_t d, std::int64_t) { return d < 2; };
    EXPECT_THROW(ModelBackend().run(tiny_config(), writer, cancel_at_2), trace::Cancelled);
    EXPECT_TRUE(writer.abandoned());
    EXPECT_FALSE(writer.finished());
    EXPECT_TRUE(writer.data().activities.empty());
}

TEST(ModelRunTest, RegistryKnowsTheModelBackend) {
    EXPECT_EQ(backend_names(), (std::vector<std::string>{"model", "cpu", "cuda"}));
    auto b = make_backend("model");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->name(), "model");
    EXPECT_TRUE(b->available().ok);
    EXPECT_EQ(make_backend("tpu"), nullptr);
}

}  // namespace
}  // namespace tokenscope::capture
