// Iteration presets (docs/engine-traces.md, Iterations): markers written as the engines write
// them (vLLM's GPUWorker.annotate_profile, TensorRT-LLM's PyExecutor._forward_step,
// SGLang's scheduler ranges), in hand-made Kineto and Nsight Systems files.
#include "import/step_presets.h"

#include <gtest/gtest.h>

#include <string>

#include "import/kineto/kineto_importer.h"
#include "import/nsys/nsys_importer.h"
#include "kineto_test_util.h"
#include "nsys_test_db.h"

using namespace tokenscope;
using namespace tokenscope::import;
using import::testing::global_tid;
using import::testing::temp_path;
using import::testing::TestDb;

namespace {

const trace::Diagnostic* find_diag(const trace::RunData& run, const std::string& name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return &d;
    return nullptr;
}

trace::BatchComposition batch(int pr, int pt, int dr, int dt) {
    return {pr, pt, dr, dt};
}

std::string annotation(const std::string& name, int ts, int dur) {
    return R"({"ph":"X","cat":"user_annotation","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
           std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + "}";
}

trace::RunData import_kineto(const std::string& file, const std::string& events,
                             const std::string& pattern = {}) {
    std::string path =
        kineto_test::write_file(file, "{\"schemaVersion\": 1, \"traceEvents\": [" + events + "]}");
    ImportOptions options;
    options.step_pattern = pattern;
    return KinetoImporter().import(path, options, {});
}

}  // namespace

TEST(StepPresets, ParseEachEnginesMarker) {
    auto v = StepSelector::parse("vllm", "execute_context_2(1536)_generation_30(30)");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->batch, batch(2, 1536, 30, 30));
    EXPECT_FALSE(v->number);

    auto old = StepSelector::parse("vllm-v0", "execute_new_1_cached_7");
    ASSERT_TRUE(old);
    EXPECT_EQ(old->batch, batch(1, -1, 7, -1));

    auto trt =
        StepSelector::parse("tensorrt-llm", "[Executor] _forward_step 41: 0 ctx reqs, 32 gen reqs");
    ASSERT_TRUE(trt);
    EXPECT_EQ(trt->number, 41);
    EXPECT_EQ(trt->batch, batch(0, -1, 32, -1));
    auto trt_tokens = StepSelector::parse(
        "tensorrt-llm", "[Executor] _forward_step 7: 3 ctx reqs, 900 ctx tokens, 5 gen reqs");
    ASSERT_TRUE(trt_tokens);
    EXPECT_EQ(trt_tokens->batch, batch(3, 900, 5, -1));
    // Older TensorRT-LLM wrote no iteration number.
    auto trt_old = StepSelector::parse("tensorrt-llm", "_forward_step: 1 ctx reqs, 0 gen reqs");
    ASSERT_TRUE(trt_old);
    EXPECT_FALSE(trt_old->number);
    EXPECT_EQ(trt_old->batch, batch(1, -1, 0, -1));

    auto sgl = StepSelector::parse("sglang", "scheduler.run_batch");
    ASSERT_TRUE(sgl);
    EXPECT_FALSE(sgl->batch.known());
    EXPECT_FALSE(StepSelector::parse("sglang", "scheduler.recv_requests"));

    auto torch = StepSelector::parse("pytorch", "ProfilerStep#12");
    ASSERT_TRUE(torch);
    EXPECT_EQ(torch->number, 12);
    EXPECT_FALSE(StepSelector::parse("vllm", "execute_context_2(1536)_generation_30"));
    EXPECT_FALSE(StepSelector::parse("pytorch", "ProfilerStep#"));
}

TEST(StepPresets, VllmMarkersWinOverProfilerStepAndCarryTheBatch) {
    // vLLM calls profiler.step() and then annotates the iteration inside it, so
    // both markers are in the trace; the vllm preset comes first.
    std::string events = annotation("ProfilerStep#5", 0, 1000) + "," +
                         annotation("execute_context_2(1536)_generation_6(6)", 10, 900) + "," +
                         annotation("ProfilerStep#6", 1000, 1000) + "," +
                         annotation("execute_context_0(0)_generation_8(8)", 1010, 500) + "," +
                         annotation("execute_context_0(0)_generation_8(8)", 2010, 400);
    auto run = import_kineto("vllm_steps.json", events);
    ASSERT_EQ(run.steps.size(), 3u);
    EXPECT_EQ(run.steps[0].start_ns, 10'000);
    EXPECT_EQ(run.steps[0].end_ns, 910'000);
    EXPECT_EQ(run.steps[0].batch, batch(2, 1536, 6, 6));
    EXPECT_EQ(run.steps[0].phase, trace::Phase::Prefill);  // the iteration has prefill work
    EXPECT_EQ(run.steps[1].batch, batch(0, 0, 8, 8));
    EXPECT_EQ(run.steps[1].phase, trace::Phase::Iteration);
    // No number in the marker: numbered by position.
    EXPECT_EQ(run.steps[0].index, 0);
    EXPECT_EQ(run.steps[2].index, 2);
    const auto* d = find_diag(run, "step_preset");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->value, 3.0);
    EXPECT_NE(d->text.find("vllm"), std::string::npos) << d->text;

    // --steps-from overrides the presets.
    auto torch = import_kineto("vllm_steps_override.json", events, "^ProfilerStep#");
    ASSERT_EQ(torch.steps.size(), 2u);
    EXPECT_EQ(torch.steps[0].index, 5);
    EXPECT_EQ(torch.steps[1].start_ns, 1'000'000);
    EXPECT_FALSE(torch.steps[0].batch.known());
    EXPECT_EQ(find_diag(torch, "step_preset"), nullptr);
    EXPECT_NE(find_diag(torch, "step_pattern"), nullptr);

    // A pattern over vLLM's markers still reads their batch.
    auto pattern = import_kineto("vllm_steps_pattern.json", events, "^execute_");
    ASSERT_EQ(pattern.steps.size(), 3u);
    EXPECT_EQ(pattern.steps[2].batch, batch(0, 0, 8, 8));
}

TEST(StepPresets, OlderVllmMarkersAndNoMarkersAtAll) {
    auto run = import_kineto("vllm_v0.json", annotation("execute_new_2_cached_0", 0, 100) + "," +
                                                 annotation("execute_new_0_cached_2", 100, 50));
    ASSERT_EQ(run.steps.size(), 2u);
    EXPECT_EQ(run.steps[0].phase, trace::Phase::Prefill);
    EXPECT_EQ(run.steps[1].batch, batch(0, -1, 2, -1));
    EXPECT_NE(find_diag(run, "step_preset")->text.find("vllm-v0"), std::string::npos);

    auto none = import_kineto("no_markers.json", annotation("aten::mm", 0, 100));
    EXPECT_TRUE(none.steps.empty());
    const auto* d = find_diag(none, "no_steps");
    ASSERT_NE(d, nullptr);
    EXPECT_NE(d->text.find("tensorrt-llm"), std::string::npos) << d->text;
}

namespace {

// An Nsight Systems export with NVTX ranges only: TensorRT-LLM iterations, an SGLang
// range and a ProfilerStep, on one thread.
std::string nvtx_db(const std::string& file, const std::string& rows) {
    TestDb db(temp_path(file));
    db.create_modern_schema();
    db.exec("INSERT INTO NVTX_EVENTS VALUES " + rows + ";");
    return db.path();
}

std::string nvtx_row(std::int64_t start, std::int64_t end, const std::string& text) {
    const std::string gt = std::to_string(global_tid(100, 7));
    return "(" + std::to_string(start) + "," + std::to_string(end) + ",59,'" + text + "',NULL," +
           gt + ",NULL)";
}

}  // namespace

TEST(StepPresets, TensorRtLlmIterationsInAnNsysExport) {
    std::string path = nvtx_db(
        "trtllm.sqlite",
        nvtx_row(1000, 9000, "ProfilerStep#1") + "," +
            nvtx_row(1100, 5000, "[Executor] _forward_step 10: 4 ctx reqs, 28 gen reqs") + "," +
            nvtx_row(5100, 8000, "[Executor] _forward_step 11: 0 ctx reqs, 32 gen reqs") + "," +
            nvtx_row(5200, 5300, "scheduler.run_batch"));
    auto run = NsysImporter().import(path, {}, {});
    ASSERT_EQ(run.steps.size(), 2u);
    EXPECT_EQ(run.steps[0].index, 10);
    EXPECT_EQ(run.steps[0].start_ns, 1100);
    EXPECT_EQ(run.steps[0].batch, batch(4, -1, 28, -1));
    EXPECT_EQ(run.steps[0].phase, trace::Phase::Prefill);
    EXPECT_EQ(run.steps[1].index, 11);
    EXPECT_EQ(run.steps[1].phase, trace::Phase::Iteration);
    // The ranges used are on the step track; the others stay on their thread.
    for (const auto& a : run.activities) {
        const bool step = run.name_of(a).find("_forward_step") != std::string_view::npos;
        EXPECT_EQ(run.lanes[a.lane].kind == trace::LaneKind::StepTrack, step) << run.name_of(a);
    }
    EXPECT_NE(find_diag(run, "step_preset")->text.find("tensorrt-llm"), std::string::npos);

    std::string sglang =
        nvtx_db("sglang.sqlite", nvtx_row(0, 100, "scheduler.recv_requests") + "," +
                                     nvtx_row(100, 900, "scheduler.run_batch") + "," +
                                     nvtx_row(1000, 1800, "scheduler.run_batch"));
    auto s = NsysImporter().import(sglang, {}, {});
    ASSERT_EQ(s.steps.size(), 2u);
    EXPECT_EQ(s.steps[1].start_ns, 1000);
    EXPECT_EQ(s.steps[1].index, 1);
    EXPECT_NE(find_diag(s, "step_preset")->text.find("sglang"), std::string::npos);
}

namespace {

std::string x_event(const std::string& cat, const std::string& name, int tid, int ts, int dur,
                    const std::string& args = "") {
    return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":1,"tid":)" +
           std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
           std::to_string(dur) + (args.empty() ? "" : R"(,"args":{)" + args + "}") + "}";
}

}  // namespace

// The grammars of the engines' markers as the fixtures and the engines' code write them
// (vLLM V1 gpu_worker/gpu_model_runner, SGLang ModelRunner._build_step_span_name).
TEST(StepPresets, NewerVllmAndSglangGrammars) {
    auto sq = StepSelector::parse(
        "vllm-sq",
        "execute_8192_context_9(sq8155sk8430sqsq7475785sqsk7671310)_generation_37(sq37sk34489"
        "sqsq37sqsk34489)");
    ASSERT_TRUE(sq);
    EXPECT_EQ(sq->batch, (trace::BatchComposition{9, 8155, 37, 37, 8430, 34489}));
    auto decode = StepSelector::parse(
        "vllm-sq",
        "execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32sqsk55086)");
    ASSERT_TRUE(decode);
    EXPECT_FALSE(decode->batch.has_prefill());
    EXPECT_EQ(decode->batch.decode_key_tokens, 55086);
    // "(888_788544)": the tokens and the sum of their squares.
    auto squares = StepSelector::parse("vllm", "execute_context_1(888_788544)_generation_0(0)");
    ASSERT_TRUE(squares);
    EXPECT_EQ(squares->batch, batch(1, 888, 0, 0));
    EXPECT_TRUE(StepSelector::parse("vllm-python",
                                    "vllm/v1/worker/gpu_model_runner.py(1002): execute_model"));
    EXPECT_FALSE(
        StepSelector::parse("vllm-python", "vllm/v1/worker/gpu_worker.py(263): execute_model"));
    auto extend = StepSelector::parse("sglang", "step[EXTEND bs=8 toks=4096]");
    ASSERT_TRUE(extend);
    EXPECT_EQ(extend->batch, batch(8, 4096, 0, 0));
    auto sgl_decode = StepSelector::parse("sglang", "step[DECODE bs=32]");
    ASSERT_TRUE(sgl_decode);
    EXPECT_EQ(sgl_decode->batch, batch(0, 0, 32, 32));
    EXPECT_TRUE(
        StepSelector::parse("sglang",
                            "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py(2919): "
                            "_run_batch_inner"));
    EXPECT_FALSE(StepSelector::parse("sglang", "step[DECODE]"));
}

// vLLM V1 with a Python stack and no annotations: the worker's execute_model wraps the
// runner's; the preset takes the runner's, a pattern matching both counts each iteration once.
TEST(StepPresets, PythonFunctionsFrameIterationsAndNestedOnesCountOnce) {
    std::string events;
    for (int i = 0; i < 3; ++i) {
        const int t = i * 1000;
        if (i) events += ",";
        events +=
            x_event("python_function", "vllm/v1/worker/gpu_worker.py(263): execute_model", 1, t,
                    900) +
            "," +
            x_event("python_function", "vllm/v1/worker/gpu_model_runner.py(1002): execute_model", 1,
                    t + 10, 880);
    }
    auto run = import_kineto("vllm_python.json", events);
    ASSERT_EQ(run.steps.size(), 3u);
    EXPECT_EQ(run.steps[1].start_ns, 1'010'000);
    const auto* d = find_diag(run, "step_preset");
    ASSERT_NE(d, nullptr);
    EXPECT_NE(d->text.find("vllm-python"), std::string::npos) << d->text;
    EXPECT_NE(d->text.find("3 Python functions"), std::string::npos) << d->text;

    auto pattern = import_kineto("vllm_python_pattern.json", events, "execute_model");
    ASSERT_EQ(pattern.steps.size(), 3u);  // not 6: the runner's sits inside the worker's
    EXPECT_EQ(pattern.steps[1].start_ns, 1'000'000);
    EXPECT_EQ(pattern.steps[1].end_ns, 1'900'000);
    const auto* p = find_diag(pattern, "step_pattern");
    ASSERT_NE(p, nullptr);
    EXPECT_NE(p->text.find("3 markers nested in them counted once"), std::string::npos) << p->text;
}

// SGLang: step[DECODE bs=32] inside _run_batch_inner frames one iteration, and the outer
// marker takes the inner one's batch.
TEST(StepPresets, NestedSglangMarkersGiveOneIterationWithTheBatch) {
    const std::string inner = "/sgl/srt/managers/scheduler.py(2919): _run_batch_inner";
    auto run = import_kineto("sglang_nested.json",
                             x_event("python_function", inner, 1, 0, 900) + "," +
                                 annotation("step[DECODE bs=32]", 100, 700) + "," +
                                 x_event("python_function", inner, 1, 1000, 900) + "," +
                                 annotation("step[EXTEND bs=2 toks=900]", 1100, 700));
    ASSERT_EQ(run.steps.size(), 2u);
    EXPECT_EQ(run.steps[0].start_ns, 0);
    EXPECT_EQ(run.steps[0].batch, batch(0, 0, 32, 32));
    EXPECT_EQ(run.steps[1].batch, batch(2, 900, 0, 0));
    EXPECT_EQ(run.steps[1].phase, trace::Phase::Prefill);
}

// A marker's window runs on to the end of the GPU work its launches started: the graph
// launched at 150 us runs kernels until 2400 us, long after the 200 us marker.
TEST(StepPresets, AnIterationSpansTheGpuWorkItsMarkerLaunched) {
    const std::string marker = "execute_context_0(0)_generation_8(8)";
    std::string events =
        annotation(marker, 0, 200) + "," +
        x_event("cuda_runtime", "cudaGraphLaunch", 1, 150, 20, R"("correlation":7)") + "," +
        x_event("kernel", "gemm_a", 9, 300, 1000, R"("correlation":7,"device":0,"stream":9)") +
        "," +
        x_event("kernel", "gemm_b", 9, 1300, 1100, R"("correlation":7,"device":0,"stream":9)") +
        "," + annotation(marker, 3000, 200) + "," +
        x_event("cuda_runtime", "hipGraphLaunch", 1, 3100, 20, R"("correlation":8)") + "," +
        x_event("kernel", "gemm_c", 9, 3150, 40, R"("correlation":8,"device":0,"stream":9)") + "," +
        // launched from another thread: not this marker's work
        x_event("cuda_runtime", "cudaLaunchKernel", 2, 3010, 5, R"("correlation":9)") + "," +
        x_event("kernel", "late", 9, 3300, 5000, R"("correlation":9,"device":0,"stream":9)");
    auto run = import_kineto("graph_window.json", events);
    ASSERT_EQ(run.steps.size(), 2u);
    EXPECT_EQ(run.steps[0].marker_end_ns, 200'000);
    EXPECT_EQ(run.steps[0].end_ns, 2'400'000);
    EXPECT_EQ(run.steps[1].marker_end_ns, 3'200'000);
    EXPECT_EQ(run.steps[1].end_ns, 3'200'000);  // its kernel ended inside the marker
    const auto* d = find_diag(run, "iteration_window");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->value, 1.0);
}

// TensorRT-LLM's PyExecutor under Nsight Systems: the NVTX range of one _forward_step
// launches a CUDA graph whose kernels run after the range ends; the step spans them.
// [Executor] _forward_step 5: [1000, 3000] launches at 2500 (correlation 21), kernels
// [3100, 9000] and [9000, 12000]; _forward_step 6: [13000, 15000], its kernel [14000,
// 14900] ends inside it. A kernel launched from another thread inside step 5 (correlation
// 22, [3000, 20000]) is not step 5's.
TEST(StepPresets, NsysIterationsSpanTheGpuWorkTheirRangeLaunched) {
    TestDb db(temp_path("trtllm_graph.sqlite"));
    db.create_modern_schema();
    const std::string gt = std::to_string(global_tid(100, 7));
    const std::string other = std::to_string(global_tid(100, 8));
    const std::string gp = std::to_string(global_tid(100, 0));
    db.exec(
        "INSERT INTO StringIds VALUES (1,'cudaGraphLaunch_v10000'),(2,'gemm'),"
        "(3,'cudaLaunchKernel_v7000');"
        "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (2500,2600,0," +
        gt + ",21,1),(14000,14050,0," + gt + ",23,3),(2000,2100,0," + other + ",22,3);" +
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (3100,9000,0,7,21," + gp +
        ",2,2,1,1),(9000,12000,0,7,21," + gp + ",2,2,1,1),(14100,14900,0,7,23," + gp +
        ",2,2,1,1),(3000,20000,0,8,22," + gp + ",2,2,1,1);" + "INSERT INTO NVTX_EVENTS VALUES " +
        nvtx_row(1000, 3000, "[Executor] _forward_step 5: 0 ctx reqs, 32 gen reqs") + "," +
        nvtx_row(13000, 15000, "[Executor] _forward_step 6: 0 ctx reqs, 32 gen reqs") + ";");
    auto run = NsysImporter().import(db.path(), {}, {});
    ASSERT_EQ(run.steps.size(), 2u);
    EXPECT_EQ(run.steps[0].start_ns, 1000);
    EXPECT_EQ(run.steps[0].marker_end_ns, 3000);
    EXPECT_EQ(run.steps[0].end_ns, 12000);  // the graph's last kernel, not the other thread's
    EXPECT_EQ(run.steps[1].end_ns, 15000);  // its kernel ended inside the range
    EXPECT_EQ(run.steps[1].marker_end_ns, 15000);
    const auto* d = find_diag(run, "iteration_window");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->value, 1.0);
}
