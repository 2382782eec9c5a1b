// A serving engine's trace opened as a user would: tokenscope-cli on a PyTorch-profiler
// (Kineto) trace shaped like vLLM's, written here. 40 iterations of 10 ms, each
// marked execute_context_N(T)_generation_N(T) and running 10 kernels of 996 us back
// to back (GPU busy 99.6%); the first 20 launch each kernel with cudaLaunchKernel,
// the last 20 launch all ten with one cudaGraphLaunch (one correlation id). Every
// expected number below follows from those times and docs/attribution.md and docs/engine-traces.md.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_process.h"

namespace {

namespace fs = std::filesystem;

using Result = tokenscope::test::CliResult;

constexpr int kIterations = 40, kGraphFrom = 20, kKernels = 10;
constexpr std::int64_t kIterationUs = 10'000, kKernelUs = 996, kFirstKernelUs = 20;
constexpr std::int64_t kOriginUs = 1'000;
constexpr const char* kMemoryKernel =
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, "
    "1>)";
constexpr const char* kComputeKernel = "ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn";

// Microseconds with three decimals, exact in ns.
std::string us(std::int64_t ns) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000),
                  static_cast<long long>(ns % 1000));
    return buf;
}

std::string event(const std::string& cat, const std::string& name, int pid, int tid,
                  std::int64_t ts_ns, std::int64_t dur_ns, const std::string& args = "") {
    std::string e = R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)" +
                    std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" +
                    us(ts_ns) + R"(,"dur":)" + us(dur_ns);
    if (!args.empty()) e += R"(,"args":{)" + args + "}";
    return e + "}";
}

std::string correlation(int c) {
    return R"("correlation":)" + std::to_string(c);
}

// Iteration 0 also prefills 2 requests (256 tokens); the rest decode 8.
std::string marker(int i) {
    return i == 0 ? "execute_context_2(256)_generation_6(6)"
                  : "execute_context_0(0)_generation_8(8)";
}

std::string vllm_trace() {
    std::string events;
    auto add = [&](const std::string& e) { events += (events.empty() ? "" : ",\n") + e; };
    int corr = 1;
    for (int i = 0; i < kIterations; ++i) {
        const std::int64_t t = (kOriginUs + i * kIterationUs) * 1000;
        add(event("user_annotation", marker(i), 1, 1, t, kIterationUs * 1000));
        const bool graph = i >= kGraphFrom;
        if (graph)
            add(event("cuda_runtime", "cudaGraphLaunch", 1, 1, t + 2000, 8000, correlation(corr)));
        for (int k = 0; k < kKernels; ++k) {
            if (!graph)  // the host runs ahead: 1 us calls every 1.5 us
                add(event("cuda_runtime", "cudaLaunchKernel", 1, 1, t + 2000 + k * 1500, 1000,
                          correlation(corr + k)));
            const std::int64_t start = t + (kFirstKernelUs + k * kKernelUs) * 1000;
            add(event("kernel", k % 2 ? kComputeKernel : kMemoryKernel, 0, 7, start,
                      kKernelUs * 1000,
                      correlation(graph ? corr : corr + k) + R"(,"device":0,"stream":7)"));
        }
        corr += graph ? 1 : kKernels;
    }
    return "{\"schemaVersion\": 1, \"traceEvents\": [\n" + events + "\n]}\n";
}

class EngineTrace : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("tokenscope_engine_test_" + std::to_string(getpid()));
        fs::create_directories(dir_);
        trace_ = (dir_ / "vllm_graphs.pt.trace.json").string();
        std::ofstream(trace_) << vllm_trace();
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    static Result cli(const std::string& args) {
        return tokenscope::test::run_cli(args + " --progress none");
    }
    static nlohmann::json json_of(const std::string& args) {
        Result r = cli(args);
        EXPECT_EQ(r.status, 0) << args << ": " << r.err;
        return nlohmann::json::parse(r.out);
    }

    static fs::path dir_;
    static std::string trace_;
};

fs::path EngineTrace::dir_;
std::string EngineTrace::trace_;

const nlohmann::json& rule(const nlohmann::json& run, const std::string& name) {
    for (const auto& r : run["verdict"]["rules"])
        if (r["name"] == name) return r;
    throw std::runtime_error("no rule " + name);
}

}  // namespace

TEST_F(EngineTrace, VllmMarkersFrameTheStepsWithNoOption) {
    auto info = json_of("info --json " + trace_);
    const auto& run = info.contains("runs") ? info["runs"][0] : info;
    EXPECT_EQ(run["steps"], kIterations);
    bool preset = false;
    for (const auto& d : run["diagnostics"])
        if (d["name"] == "step_preset") {
            preset = true;
            EXPECT_EQ(d["value"], kIterations);
            EXPECT_NE(d["text"].get<std::string>().find("vllm"), std::string::npos);
        }
    EXPECT_TRUE(preset);
}

TEST_F(EngineTrace, CudaGraphDecodeReadsGpuBound) {
    auto j = json_of("breakdown --json --steps " + trace_);
    const auto& run = j["runs"][0];
    EXPECT_EQ(run["verdict"]["primary"], "gpu-bound") << run["verdict"].dump();
    // Every iteration's first kernel starts 18 us after its launch call (the stream is
    // idle since 20 us before the iteration); the other 9 wait only behind their
    // predecessor, in the graph or on the stream: delays 40 x 18 us and 360 x 0, P95
    // at rank 0.95 * 399 = 379.05 among the 18 us. Measured from the one graph launch,
    // the tenth kernel of a graph would read 18 us + 9 x 996 us.
    EXPECT_EQ(rule(run, "launch_delay_p95_ns")["value"].get<double>(), 18'000.0);
    EXPECT_FALSE(rule(run, "launch_delay_p95_ns")["fired"].get<bool>());

    const auto& rows = run["step_rows"];
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(kIterations));
    for (int i : {kGraphFrom - 1, kGraphFrom + 5}) {
        const auto& a = rows[i]["assigned_ns"];
        const std::int64_t gpu =
            a["gpu_compute"].get<std::int64_t>() + a["gpu_memory"].get<std::int64_t>();
        EXPECT_EQ(gpu, kKernels * kKernelUs * 1000) << i;
        // cpu: only the launch calls: 10 x 1 us eager, the one 8 us cudaGraphLaunch.
        const std::int64_t cpu = i >= kGraphFrom ? 8'000 : kKernels * 1'000;
        EXPECT_EQ(a["cpu"].get<std::int64_t>(), cpu) << i;
        EXPECT_EQ(a["scheduling"].get<std::int64_t>(), kIterationUs * 1000 - gpu - cpu) << i;
        EXPECT_EQ(a["nvlink"].get<std::int64_t>() + a["pcie"].get<std::int64_t>(), 0) << i;
        EXPECT_EQ(rows[i]["batch"]["decode_requests"], 8);
        EXPECT_EQ(rows[i]["batch"]["decode_tokens"], 8);
        EXPECT_EQ(rows[i]["batch"]["prefill_requests"], 0);
        EXPECT_EQ(rows[i]["phase"], "iteration");
    }
    EXPECT_EQ(rows[0]["phase"], "prefill");
    EXPECT_EQ(rows[0]["batch"]["prefill_tokens"], 256);
}

TEST_F(EngineTrace, StepTableAndHeatmapShowTheBatch) {
    // The step table as CSV: the text table wraps its cells to the terminal's width.
    Result text = cli("breakdown --steps --csv " + trace_);
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("prefill 2 req 256 tok, decode 6 req 6 tok"), std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("decode 8 req 8 tok"), std::string::npos);

    auto map = json_of("heatmap --json --rows batch --metric step --window 10steps " + trace_);
    std::vector<std::string> labels;
    for (const auto& r : map["runs"][0]["rows"]) labels.push_back(r["label"]);
    EXPECT_EQ(labels, (std::vector<std::string>{"decode 8 req", "mixed"}));
}

TEST_F(EngineTrace, StepsFromStillOverridesThePresets) {
    // A pattern replaces the presets: one that matches no range leaves no steps, one
    // that matches only iteration 0's marker frames one step.
    auto j = json_of("info --json --steps-from ^nothing_here " + trace_);
    const auto& run = j.contains("runs") ? j["runs"][0] : j;
    EXPECT_EQ(run["steps"], 0);
    auto prefill = json_of("info --json --steps-from ^execute_context_2 " + trace_);
    EXPECT_EQ((prefill.contains("runs") ? prefill["runs"][0] : prefill)["steps"], 1);
}

TEST_F(EngineTrace, TextTablesShortenKernelNamesAndCsvKeepsThem) {
    Result text = cli("heatmap --rows kernel --metric kernel --window 100ms " + trace_);
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("vectorized_elementwise_kernel"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("FillFunctor"), std::string::npos) << text.out;

    Result diff = cli("diff " + trace_ + " " + trace_);
    ASSERT_EQ(diff.status, 0) << diff.err;
    EXPECT_NE(diff.out.find("vectorized_elementwise_kernel"), std::string::npos);
    EXPECT_EQ(diff.out.find("FillFunctor"), std::string::npos) << diff.out;
    Result csv = cli("diff --csv " + trace_ + " " + trace_);
    ASSERT_EQ(csv.status, 0) << csv.err;
    EXPECT_NE(csv.out.find("at::native::FillFunctor<float>"), std::string::npos);
}

TEST_F(EngineTrace, ImportedRunKeepsTheBatchComposition) {
    const std::string out = (dir_ / "imported.tokenscope").string();
    Result r = cli("import " + trace_ + " --out " + out);
    ASSERT_EQ(r.status, 0) << r.err;
    auto j = json_of("breakdown --json --steps " + out);
    const auto& rows = j["runs"][0]["step_rows"];
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(kIterations));
    EXPECT_EQ(rows[0]["phase"], "prefill");
    EXPECT_EQ(rows[0]["batch"]["prefill_requests"], 2);
    EXPECT_EQ(rows[0]["batch"]["prefill_tokens"], 256);
    EXPECT_EQ(rows[kIterations - 1]["batch"]["decode_requests"], 8);
}
