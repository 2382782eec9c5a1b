// The cpu backend: a measured run of the fp32 reference, written like any capture.
#include "capture/cpu/cpu_backend.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "capture/backend_registry.h"
#include "capture/memory_run_writer.h"
#include "kernels/decode_planner.h"
#include "store/store_reader.h"
#include "store/store_writer.h"

namespace tokenscope::capture {
namespace {

using kernels::Strategy;
using trace::ActivityKind;

CaptureConfig make_config(Strategy s = Strategy::Greedy) {
    CaptureConfig c;
    c.model = "tiny";
    c.gpu = "no such GPU";  // the cpu backend ignores the GPU preset
    c.decode.batch = 2;
    c.decode.prompt_len = 12;
    c.decode.new_tokens = 8;
    c.decode.strategy = s;
    c.decode.top_k = 10;
    c.decode.beams = 2;
    c.decode.draft_layers = 4;
    c.decode.gamma = 3;
    c.decode.acceptance = 1.0;
    c.decode.seed = 5;
    return c;
}

std::uint16_t lane_named(const trace::RunData& run, std::string_view name) {
    for (std::size_t i = 0; i < run.lanes.size(); ++i)
        if (run.lanes[i].name == name) return static_cast<std::uint16_t>(i);
    ADD_FAILURE() << "no lane " << name;
    return 0;
}

std::vector<trace::Activity> on_lane(const trace::RunData& run, std::uint16_t lane,
                                     ActivityKind kind) {
    std::vector<trace::Activity> out;
    for (const auto& a : run.activities)
        if (a.lane == lane && a.kind == kind) out.push_back(a);
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
    return out;
}

TEST(CpuBackendTest, IsRegisteredAndAlwaysAvailable) {
    auto b = make_backend("cpu");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->name(), "cpu");
    EXPECT_TRUE(b->available().ok);
    const auto names = backend_names();
    EXPECT_NE(std::find(names.begin(), names.end(), "cpu"), names.end());
}

TEST(CpuBackendTest, RunInfoSaysMeasuredOnTheCpu) {
    const auto run = measure_cpu_run(make_config());
    EXPECT_EQ(run.info.source, trace::Source::Cpu);
    EXPECT_EQ(run.info.clock, trace::ClockDomain::MonotonicRaw);
    EXPECT_EQ(run.info.gpu.name, "CPU (fp32 reference)");
    EXPECT_FALSE(run.info.host.empty());
    EXPECT_TRUE(run.info.complete);
    EXPECT_FALSE(run.info.is_model());
    const auto j = nlohmann::json::parse(run.info.workload_json);
    EXPECT_EQ(j["backend"], "cpu");
    EXPECT_NE(j["measured"].get<std::string>().find("measured on the CPU"), std::string::npos);
    EXPECT_EQ(j["model"]["name"], "tiny");
    EXPECT_EQ(j["model"]["hidden"], 256);
    EXPECT_EQ(j["decode"]["batch"], 2);
    EXPECT_EQ(j["decode"]["new_tokens"], 8);
}

TEST(CpuBackendTest, OneStepPerTokenWithPositiveTtftAndItl) {
    const auto run = measure_cpu_run(make_config());
    ASSERT_EQ(run.steps.size(), 2u * 8u);
    ASSERT_EQ(run.requests.size(), 2u);
    std::map<std::int64_t, std::vector<trace::Step>> by_request;
    for (const auto& s : run.steps) by_request[s.request].push_back(s);
    for (const auto& req : run.requests) {
        auto steps = by_request[req.id];
        ASSERT_EQ(steps.size(), 8u);
        std::sort(steps.begin(), steps.end(),
                  [](const auto& a, const auto& b) { return a.index < b.index; });
        EXPECT_GT(req.first_token_ns - req.arrival_ns, 0);  // TTFT
        EXPECT_EQ(steps.front().end_ns, req.first_token_ns);
        EXPECT_EQ(steps.back().end_ns, req.done_ns);
        EXPECT_EQ(steps.front().start_ns, req.arrival_ns);
        for (std::size_t i = 0; i < steps.size(); ++i) {
            EXPECT_EQ(steps[i].index, static_cast<std::int32_t>(i));
            EXPECT_EQ(steps[i].phase, i == 0 ? trace::Phase::Prefill : trace::Phase::Decode);
            EXPECT_EQ(steps[i].floor_ns, 0);
            if (i > 0) {
                EXPECT_GT(steps[i].end_ns - steps[i - 1].end_ns, 0) << "ITL " << i;
                EXPECT_EQ(steps[i].start_ns, steps[i - 1].end_ns);
            }
        }
        EXPECT_EQ(req.input_len, 12);
        EXPECT_EQ(req.output_len, 8);
    }
}

// Kernels on the compute lane run in order, never overlap, sit inside their
// iteration's range and are, iteration by iteration, the planner's kernels.
void expect_kernels_follow_the_plan(const CaptureConfig& config) {
    const auto run = measure_cpu_run(config);
    const auto what = std::string(kernels::to_string(config.decode.strategy));
    const auto ranges = on_lane(run, lane_named(run, "decode iterations"), ActivityKind::Range);
    const auto host = on_lane(run, lane_named(run, "main thread"), ActivityKind::Range);
    const auto kernels = on_lane(run, lane_named(run, "cpu compute"), ActivityKind::Kernel);
    const kernels::DecodePlanner planner(*kernels::find_model_preset("tiny"), config.decode);
    ASSERT_EQ(ranges.size(), static_cast<std::size_t>(planner.iteration_count())) << what;
    ASSERT_EQ(host.size(), ranges.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        EXPECT_EQ(host[i].start_ns, ranges[i].start_ns);
        const auto plan = planner.iteration(static_cast<std::int32_t>(i));
        for (const auto& spec : plan.kernels) {
            ASSERT_LT(k, kernels.size()) << what;
            const auto& a = kernels[k];
            EXPECT_EQ(run.name_of(a), spec.name()) << what << " kernel " << k;
            EXPECT_EQ(a.flops, static_cast<float>(spec.flops)) << what << " " << spec.name();
            EXPECT_EQ(a.bytes, spec.bytes()) << what << " " << spec.name();
            EXPECT_GE(a.start_ns, ranges[i].start_ns) << what << " kernel " << k;
            EXPECT_LE(a.end_ns, ranges[i].end_ns) << what << " kernel " << k;
            EXPECT_LE(a.start_ns, a.end_ns);
            if (k > 0) {
                EXPECT_LE(kernels[k - 1].end_ns, a.start_ns) << what << " overlap " << k;
            }
            ++k;
        }
    }
    EXPECT_EQ(k, kernels.size()) << what;
}

TEST(CpuBackendTest, KernelsFollowThePlanForEveryStrategy) {
    for (auto s : {Strategy::Greedy, Strategy::TopK, Strategy::Beam, Strategy::Speculative})
        expect_kernels_follow_the_plan(make_config(s));
}

TEST(CpuBackendTest, PartialDraftMeasuresItsAcceptance) {
    auto c = make_config(Strategy::Speculative);
    c.decode.draft_layers = 1;
    c.decode.new_tokens = 12;
    const auto run = measure_cpu_run(c);
    EXPECT_EQ(run.steps.size(), 2u * 12u);
    const auto kernels = on_lane(run, lane_named(run, "cpu compute"), ActivityKind::Kernel);
    const auto ranges = on_lane(run, lane_named(run, "decode iterations"), ActivityKind::Range);
    const kernels::DecodePlanner planner(*kernels::find_model_preset("tiny"), c.decode);
    const std::size_t prefill = planner.iteration(0).kernels.size();
    const std::size_t per_iteration = planner.iteration(1).kernels.size();
    EXPECT_EQ(kernels.size(), prefill + (ranges.size() - 1) * per_iteration);
    bool found = false;
    for (const auto& d : run.diagnostics) {
        if (d.name != "speculative_acceptance") continue;
        found = true;
        EXPECT_GE(d.value, 0.0);
        EXPECT_LE(d.value, 1.0);
    }
    EXPECT_TRUE(found);
}

TEST(CpuBackendTest, WritesAValidRunToAStoreFile) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("cpu_backend_test_" + std::to_string(getpid()) + ".tokenscope");
    std::filesystem::remove(path);
    std::int64_t id = 0;
    {
        store::StoreWriter store(path.string());
        auto writer = store.begin_run(trace::RunInfo{});
        CpuBackend().run(make_config(), *writer, {});
        id = writer->run_id();
    }
    store::StoreReader reader(path.string());
    const auto runs = reader.runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(runs[0].info.complete);
    EXPECT_EQ(runs[0].info.source, trace::Source::Cpu);
    EXPECT_EQ(runs[0].step_count, 16);
    EXPECT_EQ(runs[0].request_count, 2);
    const auto run = reader.load_run(id);
    EXPECT_EQ(run.lanes.size(), 3u);
    const auto kernels = on_lane(run, lane_named(run, "cpu compute"), ActivityKind::Kernel);
    const kernels::DecodePlanner planner(*kernels::find_model_preset("tiny"), make_config().decode);
    std::size_t planned = 0;
    for (std::int32_t i = 0; i < planner.iteration_count(); ++i)
        planned += planner.iteration(i).kernels.size();
    EXPECT_EQ(kernels.size(), planned);
    std::filesystem::remove(path);
}

TEST(CpuBackendTest, RefusesShapesTooBigForTheHost) {
    auto c = make_config();
    c.model = "llama-8b";
    MemoryRunWriter writer;
    try {
        CpuBackend().run(c, writer, {});
        FAIL() << "llama-8b accepted";
    } catch (const std::invalid_argument& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("llama-8b"), std::string::npos) << msg;
        EXPECT_NE(msg.find("--preset tiny"), std::string::npos) << msg;
        EXPECT_NE(msg.find("--backend model"), std::string::npos) << msg;
    }
    EXPECT_TRUE(writer.abandoned());
    EXPECT_FALSE(writer.finished());
}

TEST(CpuBackendTest, RefusesBadConfigsAndUnknownPresets) {
    auto c = make_config();
    c.decode.new_tokens = 0;
    EXPECT_THROW(measure_cpu_run(c), std::invalid_argument);
    c = make_config();
    c.model = "llama-3b";
    try {
        measure_cpu_run(c);
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown model preset 'llama-3b'"), std::string::npos);
    }
}

TEST(CpuBackendTest, ReportsProgressAndCancels) {
    std::vector<std::pair<std::int64_t, std::int64_t>> seen;
    measure_cpu_run(make_config(), [&](std::int64_t done, std::int64_t total) {
        seen.emplace_back(done, total);
        return true;
    });
    ASSERT_EQ(seen.size(), 8u);  // prefill + 7 decode steps
    EXPECT_EQ(seen.back(), std::make_pair(std::int64_t{8}, std::int64_t{8}));
    MemoryRunWriter writer;
    int calls = 0;
    EXPECT_THROW(CpuBackend().run(make_config(), writer,
                                  [&](std::int64_t, std::int64_t) { return ++calls < 3; }),
                 trace::Cancelled);
    EXPECT_EQ(calls, 3);
    EXPECT_TRUE(writer.abandoned());
    EXPECT_TRUE(writer.data().steps.empty());
}

}  // namespace
}  // namespace tokenscope::capture
