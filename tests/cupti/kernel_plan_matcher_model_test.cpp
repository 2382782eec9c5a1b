// The plan matcher over a whole decode, recorded as the cuda runner's CUPTI records would
// come with cuBLASLt projections (each projection and the LM head a GEMM plus a
// split-K reduction, launched by the library's own driver calls), in shuffled order,
// against the model backend's run of the same shape and plan: every planned kernel is
// found under its plan name, once per launch, each library helper is named after its
// entry, and per entry the FLOPs and bytes sum to the plan's.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "capture/cupti/kernel_plan_matcher.h"
#include "capture/cupti/record_decoder.h"
#include "capture/memory_run_writer.h"
#include "capture/model/model_simulator.h"
#include "capture/model/model_workload.h"
#include "cupti_records.h"
#include "kernels/decode_planner.h"

namespace tokenscope::capture::cupti {
namespace {

using namespace records;

constexpr const char* kGemm = "nvjet_tst_64x8_64x16_4x1_v_bz_splitK_TNN";
constexpr const char* kReduce =
    "void splitKreduce_kernel<32, 16, int, float, __half, float, __half, true, false, "
    "false>(cublasSplitKParams<float>, float const*, __half const*, __half*)";
constexpr const char* kOwn = "void tokenscope::kernels::cuda::workload_kernel<__half>(Args)";

bool is_library_call(kernels::KernelOp op) {
    using kernels::KernelOp;
    return op == KernelOp::QkvProj || op == KernelOp::OProj || op == KernelOp::MlpGateUp ||
           op == KernelOp::MlpDown || op == KernelOp::LmHead;
}

CaptureConfig tiny_decode() {
    CaptureConfig c;
    c.model = "tiny";
    c.gpu = "H200";
    c.decode.batch = 2;
    c.decode.prompt_len = 16;
    c.decode.new_tokens = 6;
    return c;
}

struct PerName {
    std::int64_t kernels = 0;
    std::uint64_t bytes = 0;
    double flops = 0;
};

// Kernels by name, and bytes and FLOPs by plan entry ("qkv_proj/x" counts as qkv_proj).
std::map<std::string, PerName> per_name(const trace::RunData& run, bool fold_helpers) {
    std::map<std::string, PerName> out;
    for (const auto& a : run.activities) {
        if (a.kind != trace::ActivityKind::Kernel) continue;
        std::string name(run.name_of(a));
        if (fold_helpers) name = name.substr(0, name.find('/'));
        auto& p = out[name];
        ++p.kernels;
        p.bytes += a.bytes;
        p.flops += a.flops;
    }
    return out;
}

// Plays the runner: per iteration a window [begin, end] on the host clock, per plan
// entry its launch calls (tagged with the entry's id unless the iteration is a graph
// launch) and kernels, decoded in a shuffled order with the window arriving last.
class TracedDecode {
  public:
    explicit TracedDecode(bool decode_as_graphs) : graphs_(decode_as_graphs) {}

    const trace::RunData& run(const kernels::DecodePlanner& planner) {
        std::mt19937 rng(29);
        for (std::int32_t i = 0; i < planner.iteration_count(); ++i) {
            const auto plan = planner.iteration(i);
            const bool graph = graphs_ && !plan.prefill;
            const std::int64_t begin = host_;
            std::vector<std::function<void()>> records;
            KernelPlanMatcher::Launches launches;
            launches.first_tag = graph ? 0 : next_tag_;
            std::uint32_t graph_call = 0;
            if (graph) {
                graph_call = ++correlation_;
                add(records, api(CUPTI_ACTIVITY_KIND_RUNTIME,
                                 CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, host_,
                                 host_ + 5000, 1, graph_call));
                host_ += 5000;
            }
            for (std::size_t e = 0; e < plan.kernels.size(); ++e) {
                const bool library = is_library_call(plan.kernels[e].op);
                launches.kernels.push_back(library ? 2 : 1);
                for (int j = 0; j < (library ? 2 : 1); ++j) {
                    const std::uint32_t call = graph ? graph_call : ++correlation_;
                    if (!graph) {
                        add(records, library ? api(CUPTI_ACTIVITY_KIND_DRIVER,
                                                   CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, host_,
                                                   host_ + 900, 1, call)
                                             : api(CUPTI_ACTIVITY_KIND_RUNTIME,
                                                   CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                                                   host_, host_ + 900, 1, call));
                        add(records, external(call, next_tag_ + e));
                        host_ += 1000;
                    }
                    const std::uint64_t length = library ? (j == 0 ? 3000 : 1000) : 500;
                    gpu_ = std::max(gpu_, host_) + 100;
                    add(records, kernel(gpu_, gpu_ + length, 7, call,
                                        library ? (j == 0 ? kGemm : kReduce) : kOwn));
                    gpu_ += length;
                }
            }
            host_ = std::max(host_, gpu_) + 2000;
            std::shuffle(records.begin(), records.end(), rng);
            for (auto& r : records) r();
            matcher_.add_iteration(plan, begin, host_, launches);
            decoder_.settle_kernels();
            next_tag_ += plan.kernels.size();
            host_ += 10'000;
        }
        decoder_.finish();
        writer_.finish();
        return writer_.data();
    }
    const KernelPlanMatcher& matcher() const { return matcher_; }

  private:
    template <typename Record>
    void add(std::vector<std::function<void()>>& records, const Record& r) {
        records.push_back([this, r] { decoder_.decode(as_record(r)); });
    }

    bool graphs_;
    MemoryRunWriter writer_;
    KernelPlanMatcher matcher_;
    RecordDecoder decoder_{writer_, DecoderOptions{"", false, 4242, &matcher_}};
    std::uint64_t host_ = 1'000'000, gpu_ = 0;
    std::uint32_t correlation_ = 0;
    std::uint64_t next_tag_ = 1;
};

void expect_plan_match(bool decode_as_graphs) {
    const ModelRunSpec spec = resolve_model_run(tiny_decode());
    const kernels::DecodePlanner planner(spec.shape, spec.decode);
    TracedDecode traced(decode_as_graphs);
    const trace::RunData& run = traced.run(planner);
    MemoryRunWriter model_writer;
    ModelSimulator(spec, model_writer).run({});
    model_writer.finish();
    const auto model = per_name(model_writer.data(), false);
    const auto names = per_name(run, false);
    const auto entries = per_name(run, true);

    EXPECT_EQ(traced.matcher().unmatched(), 0);
    EXPECT_EQ(traced.matcher().waiting(), 0u);
    ASSERT_EQ(entries.size(), model.size());
    std::int64_t library_calls = 0;
    for (const auto& [name, m] : model) {
        SCOPED_TRACE(name);
        ASSERT_TRUE(names.count(name));
        // Every planned kernel found under its plan name, once per launch.
        EXPECT_EQ(names.at(name).kernels, m.kernels);
        // The entry's work, helpers included, is the plan's.
        EXPECT_EQ(entries.at(name).bytes, m.bytes);
        EXPECT_NEAR(entries.at(name).flops, m.flops, 1e-6 * m.flops);
        const std::string helper = name + "/splitKreduce_kernel";
        const bool library = names.count(helper) > 0;
        if (library) {
            EXPECT_EQ(names.at(helper).kernels, m.kernels);
            library_calls += m.kernels;
            // 3:1 by duration.
            EXPECT_NEAR(static_cast<double>(names.at(helper).bytes),
                        static_cast<double>(m.bytes) / 4, static_cast<double>(m.kernels));
        }
        EXPECT_EQ(entries.at(name).kernels, m.kernels * (library ? 2 : 1));
    }
    EXPECT_EQ(traced.matcher().helpers(), library_calls);
    EXPECT_GT(library_calls, 0);
}

TEST(KernelPlanMatcherModel, EagerLaunchesMatchTheModelBackendEntryByEntry) {
    expect_plan_match(false);
}

TEST(KernelPlanMatcherModel, GraphLaunchedDecodeMatchesTheModelBackendEntryByEntry) {
    expect_plan_match(true);
}

}  // namespace
}  // namespace tokenscope::capture::cupti
