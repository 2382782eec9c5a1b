// Engine traces no fixture shows, written here and opened through the built binary:
//
// 1. A multi-iteration vLLM V1 trace of rank 0 of a tensor-parallel run on H100 SXM
//    (NVLink), as vLLM writes it with the PyTorch profiler's with_stack=True and no
//    annotations: each iteration is the Python function
//    "vllm/v1/worker/gpu_model_runner.py(N): execute_model" nested in
//    "vllm/v1/worker/gpu_worker.py(N): execute_model" (vllm/v1/worker/gpu_worker.py,
//    Worker.execute_model calls self.model_runner.execute_model). One eager prefill
//    launches each kernel with cudaLaunchKernel; six decodes replay a CUDA graph with one
//    cudaGraphLaunch whose kernels run after the 2 ms marker; a last iteration has no GPU
//    work. Each layer's all-reduce is vLLM's custom one,
//    vllm::cross_device_reduce_1stage (csrc/custom_all_reduce.cuh), or NCCL's
//    ncclDevKernel_AllReduce_Sum_bf16_RING_LL; the GPU is "NVIDIA H100 80GB HBM3".
// 2. Asynchronous scheduling (vLLM's async scheduler, SGLang's overlap scheduler):
//    iteration 1's CPU marker runs while iteration 0's GPU work does.
//
// Every expected figure below follows by hand from the times written, the priority
// rule of docs/attribution.md and the iteration windows of docs/engine-traces.md.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_process.h"
#include "support/temp_dir.h"

namespace {

using tokenscope::test::run_cli;

constexpr const char* kWorker = "vllm/v1/worker/gpu_worker.py(263): execute_model";
constexpr const char* kRunner = "vllm/v1/worker/gpu_model_runner.py(1002): execute_model";
constexpr const char* kGemm =
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
    "execute_segment_k_off_kernel__5x_cublas";
constexpr const char* kAttention = "flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits>";
constexpr const char* kCustomAllReduce =
    "void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, "
    "vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)";
constexpr const char* kNcclAllReduce =
    "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
constexpr const char* kElementwise =
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
    "at::detail::Array<char*, 1>)";

// Times in whole microseconds (Kineto's unit).
std::string x(const std::string& cat, const std::string& name, int pid, int tid, long ts, long dur,
              const std::string& args = "") {
    std::string e = R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)" +
                    std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" +
                    std::to_string(ts) + R"(,"dur":)" + std::to_string(dur);
    if (!args.empty()) e += R"(,"args":{)" + args + "}";
    return e + "}";
}

std::string kernel(const std::string& name, long ts, long dur, int correlation) {
    return x("kernel", name, 0, 7, ts, dur,
             R"("correlation":)" + std::to_string(correlation) + R"(,"device":0,"stream":7)");
}

std::string launch(const std::string& name, long ts, long dur, int correlation) {
    return x("cuda_runtime", name, 100, 100, ts, dur,
             R"("correlation":)" + std::to_string(correlation));
}

std::string document(const std::string& events) {
    return R"({"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA H100 80GB HBM3",)"
           R"("totalGlobalMem":85018279936,"computeMajor":9,"computeMinor":0,"numSms":132}],)"
           R"("distributedInfo":{"rank":0,"world_size":4},"traceEvents":[)" +
           events + "]}";
}

// A layer: GEMM, attention, all-reduce, elementwise, back to back from `t`; returns the end.
long layer(std::string& ev, long t, long gemm, long attention, const char* all_reduce,
           int& correlation, bool graph) {
    const std::pair<const char*, long> kernels[] = {
        {kGemm, gemm}, {kAttention, attention}, {all_reduce, 200}, {kElementwise, 100}};
    for (const auto& [name, dur] : kernels) {
        if (!graph) {
            // The eager prefill: each kernel's own 10 us launch, queued well ahead.
            ev +=
                "," + launch("cudaLaunchKernel", 100 + 20 * (correlation % 1000), 10, correlation);
        }
        ev += "," + kernel(name, t, dur, correlation);
        if (!graph) ++correlation;
        t += dur;
    }
    return t;
}

// The iteration is the runner's execute_model, 10 us inside the worker's at each end.
// Prefill: runner [10 us, 29.99 ms]; 10 layers of 1500 + 800 + 200 + 100 us from 200 us
// end at 26.2 ms, inside the marker: window = marker = 29.98 ms. Decodes d = 1..6 at
// T = 40 ms + (d - 1) * 20 ms: runner [T + 10 us, T + 1.99 ms], cudaGraphLaunch at
// T + 0.5 ms; its kernels run from T + 0.6 ms, 10 layers of 600 + 300 + 200 + 100 us =
// 12 ms, to T + 12.6 ms: the window is 12.59 ms, 10.61 ms past the marker's end. Last:
// runner [160.01, 160.49] ms, 0.48 ms.
std::string vllm_v1_trace() {
    std::string ev = x("python_function", kWorker, 100, 100, 0, 30'000) + "," +
                     x("python_function", kRunner, 100, 100, 10, 29'980);
    int correlation = 1;
    long t = 200;
    for (int l = 0; l < 10; ++l)
        t = layer(ev, t, 1500, 800, l == 0 ? kNcclAllReduce : kCustomAllReduce, correlation, false);
    for (int d = 1; d <= 6; ++d) {
        const long T = 40'000 + (d - 1) * 20'000;
        ev += "," + x("python_function", kWorker, 100, 100, T, 2000) + "," +
              x("python_function", kRunner, 100, 100, T + 10, 1980);
        int graph = 5000 + d;  // every kernel of the graph shares its launch's correlation
        ev += "," + launch("cudaGraphLaunch", T + 500, 100, graph);
        long k = T + 600;
        for (int l = 0; l < 10; ++l) k = layer(ev, k, 600, 300, kCustomAllReduce, graph, true);
    }
    ev += "," + x("python_function", kWorker, 100, 100, 160'000, 500) + "," +
          x("python_function", kRunner, 100, 100, 160'010, 480);
    return document(ev);
}

// Asynchronous scheduling, with vLLM's annotations: iteration 0's marker [0, 1 ms]
// launches a graph at 0.9 ms whose kernel runs [1, 5] ms; iteration 1's marker
// [2, 3] ms, during that kernel, launches one at 2.9 ms that runs [5, 9] ms.
std::string async_trace() {
    const char* marker = "execute_context_0(0)_generation_8(8)";
    return document(x("user_annotation", marker, 100, 100, 0, 1000) + "," +
                    launch("cudaGraphLaunch", 900, 50, 1) + "," + kernel(kGemm, 1000, 4000, 1) +
                    "," + x("user_annotation", marker, 100, 100, 2000, 1000) + "," +
                    launch("cudaGraphLaunch", 2900, 50, 2) + "," + kernel(kGemm, 5000, 4000, 2));
}

std::int64_t ns(const nlohmann::json& categories, const char* key) {
    return categories[key].get<std::int64_t>();
}

std::int64_t sum(const nlohmann::json& categories) {
    std::int64_t total = 0;
    for (const auto& [key, v] : categories.items()) total += v.get<std::int64_t>();
    return total;
}

class VllmV1Trace : public testing::Test {
  protected:
    nlohmann::json breakdown(const std::string& text, const std::string& name) const {
        const std::string path = dir_.write(name, text);
        auto r = run_cli("breakdown --json --steps " + path);
        EXPECT_EQ(r.status, 0) << r.err;
        auto j = nlohmann::json::parse(r.out, nullptr, false);
        return j.is_discarded() ? j : j["runs"][0];
    }
    tokenscope::test::TempDir dir_{"tokenscope-vllm-v1"};
};

TEST_F(VllmV1Trace, PythonFunctionIterationsSpanTheirGraphsGpuWork) {
    const auto run = breakdown(vllm_v1_trace(), "vllm_v1_tp4_rank0.json");
    ASSERT_FALSE(run.is_discarded());
    // 8 iterations, not 16: the runner's execute_model nests in the worker's.
    ASSERT_EQ(run["steps"], 8);
    const auto& rows = run["step_rows"];
    // The prefill's kernels end inside its marker; each decode runs 10.61 ms past its
    // 1.98 ms marker; the last iteration has no GPU work.
    EXPECT_EQ(rows[0]["start_ns"], 10'000);
    EXPECT_EQ(rows[0]["end_ns"], 29'990'000);
    for (int d = 1; d <= 6; ++d) {
        const auto& r = rows[d];
        const std::int64_t start = r["start_ns"];
        EXPECT_EQ(start, 40'010'000 + (d - 1) * 20'000'000) << d;
        EXPECT_EQ(r["marker_end_ns"].get<std::int64_t>() - start, 1'980'000) << d;
        EXPECT_EQ(r["end_ns"].get<std::int64_t>() - start, 12'590'000) << d;
        // Six parts summing to the window: GEMM and attention 9 ms of compute, fill
        // kernels 1 ms of memory, the custom all-reduce 2 ms of NVLink (an H100 SXM),
        // the Python marker 0.59 ms of CPU before the graph's first kernel.
        EXPECT_EQ(ns(r["assigned_ns"], "gpu_compute"), 9'000'000) << d;
        EXPECT_EQ(ns(r["assigned_ns"], "gpu_memory"), 1'000'000) << d;
        EXPECT_EQ(ns(r["assigned_ns"], "nvlink"), 2'000'000) << d;
        EXPECT_EQ(ns(r["assigned_ns"], "pcie"), 0) << d;
        EXPECT_EQ(ns(r["assigned_ns"], "cpu"), 590'000) << d;
        EXPECT_EQ(sum(r["assigned_ns"]), 12'590'000) << d;
    }
    // Prefill: NCCL's all-reduce in layer 0 and the custom one in the 9 others are both
    // communication over NVLink: 10 x 200 us.
    EXPECT_EQ(ns(rows[0]["assigned_ns"], "nvlink"), 2'000'000);
    EXPECT_EQ(rows[7]["end_ns"].get<std::int64_t>() - rows[7]["start_ns"].get<std::int64_t>(),
              480'000);
    // Run: 29.98 + 6 x 12.59 + 0.48 = 106 ms; compute + memory = 24 + 6 x 10 = 84 ms,
    // 79.2 % of it (> 75 %), compute 23 + 6 x 9 = 77 ms of it: GPU-bound, compute.
    // NVLink 2 + 6 x 2 = 14 ms, 13.2 % (< 25 %): not transfer-bound.
    EXPECT_EQ(run["total_ns"], 106'000'000);
    EXPECT_EQ(ns(run["assigned_ns"], "nvlink"), 14'000'000);
    EXPECT_EQ(ns(run["assigned_ns"], "gpu_compute") + ns(run["assigned_ns"], "gpu_memory"),
              84'000'000);
    EXPECT_EQ(run["verdict"]["primary"], "gpu-bound") << run["verdict"].dump();
    EXPECT_EQ(run["verdict"]["bound_by"], "compute");
}

TEST_F(VllmV1Trace, AsynchronousIterationsKeepExactSumsAndCountEachNanosecondOnce) {
    const auto run = breakdown(async_trace(), "async.json");
    ASSERT_FALSE(run.is_discarded());
    ASSERT_EQ(run["steps"], 2);
    const auto& rows = run["step_rows"];
    // Windows [0, 5] and [2, 9] ms: they overlap over [2, 5].
    EXPECT_EQ(rows[0]["end_ns"], 5'000'000);
    EXPECT_EQ(rows[1]["start_ns"], 2'000'000);
    EXPECT_EQ(rows[1]["end_ns"], 9'000'000);
    // Iteration 0: an annotation is no CPU work of its own (it frames work): the 50 us
    // launch call is CPU, the rest of the first ms scheduling, then 4 ms of kernel.
    EXPECT_EQ(ns(rows[0]["assigned_ns"], "cpu"), 50'000);
    EXPECT_EQ(ns(rows[0]["assigned_ns"], "scheduling"), 950'000);
    EXPECT_EQ(ns(rows[0]["assigned_ns"], "gpu_compute"), 4'000'000);
    EXPECT_EQ(sum(rows[0]["assigned_ns"]), 5'000'000);
    // Iteration 1: the GPU is busy over all of its window (iteration 0's kernel, then
    // its own); its marker's CPU is hidden under the kernel.
    EXPECT_EQ(ns(rows[1]["assigned_ns"], "gpu_compute"), 7'000'000);
    EXPECT_EQ(sum(rows[1]["assigned_ns"]), 7'000'000);
    // The run counts [0, 9] ms once: 9 ms, not 12; 8 ms of kernels, the first ms as in
    // iteration 0.
    EXPECT_EQ(run["total_ns"], 9'000'000);
    EXPECT_EQ(ns(run["assigned_ns"], "gpu_compute"), 8'000'000);
    EXPECT_EQ(ns(run["assigned_ns"], "cpu"), 50'000);
    EXPECT_EQ(ns(run["assigned_ns"], "scheduling"), 950'000);
    EXPECT_EQ(sum(run["assigned_ns"]), 9'000'000);
}

}  // namespace
