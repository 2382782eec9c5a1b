// The shared Kineto fixtures, imported and checked against the counts of
// fixtures/README.md and against an independent DOM read made here.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "import/kineto/kineto_importer.h"
#include "support/fixtures.h"
#include "support/gzip_file.h"

namespace {

using tokenscope::import::KinetoImport;
using tokenscope::import::KinetoImporter;
using tokenscope::trace::ActivityKind;
using tokenscope::trace::LaneKind;

std::string fixture(const std::string& name) {
    return std::string(TOKENSCOPE_FIXTURES_DIR) + "/kineto/" + name;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// The reference: counts by phase/category and distinct (pid, tid) per lane type.
struct Reference {
    std::map<std::string, std::int64_t> x_by_cat;  // lower-case cat of "X" events
    std::int64_t events = 0, flows = 0;
    std::set<std::pair<std::int64_t, std::int64_t>> cpu_threads, gpu_streams;
    std::int64_t kernels_with_launching_call = 0;
};

Reference read_reference(const std::string& path) {
    nlohmann::json doc = nlohmann::json::parse(tokenscope::test::gunzip(path));
    Reference ref;
    std::set<std::int64_t> runtime_correlations;
    std::vector<std::int64_t> kernel_correlations;
    for (const auto& e : doc["traceEvents"]) {
        ++ref.events;
        std::string ph = e.value("ph", "");
        std::string cat = lower(e.value("cat", ""));
        if ((ph == "s" || ph == "f") && (cat == "ac2g" || cat == "async_gpu")) ++ref.flows;
        if (ph != "X") continue;
        ++ref.x_by_cat[cat];
        bool cpu = cat == "cpu_op" || cat == "cuda_runtime" || cat == "runtime" ||
                   cat == "cuda_driver" || cat == "python_function";
        bool gpu = cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset";
        if (cpu)
            ref.cpu_threads.insert({e["pid"].get<std::int64_t>(), e["tid"].get<std::int64_t>()});
        if (gpu)
            ref.gpu_streams.insert({e["pid"].get<std::int64_t>(), e["tid"].get<std::int64_t>()});
        const auto& args = e.value("args", nlohmann::json::object());
        if (!args.contains("correlation")) continue;
        if (cat == "cuda_runtime" || cat == "runtime")
            runtime_correlations.insert(args["correlation"].get<std::int64_t>());
        if (cat == "kernel") kernel_correlations.push_back(args["correlation"].get<std::int64_t>());
    }
    for (auto c : kernel_correlations)
        ref.kernels_with_launching_call += runtime_correlations.count(c);
    return ref;
}

struct Imported {
    std::map<ActivityKind, std::int64_t> by_kind;
    std::int64_t cpu_ranges = 0;
    std::map<LaneKind, std::int64_t> lanes;
    std::int64_t kernels_with_launching_call = 0;
};

Imported summarize(const KinetoImport& imp) {
    Imported s;
    std::set<std::uint32_t> api_corr;
    for (const auto& a : imp.run.activities) {
        ++s.by_kind[a.kind];
        if (a.kind == ActivityKind::Range && imp.run.lanes[a.lane].kind == LaneKind::CpuThread)
            ++s.cpu_ranges;
        if (a.kind == ActivityKind::Api || a.kind == ActivityKind::Sync)
            api_corr.insert(a.correlation);
    }
    for (const auto& a : imp.run.activities)
        if (a.kind == ActivityKind::Kernel && a.correlation != 0 && api_corr.count(a.correlation))
            ++s.kernels_with_launching_call;
    for (const auto& l : imp.run.lanes) ++s.lanes[l.kind];
    return s;
}

KinetoImport import_fixture(const std::string& name) {
    return KinetoImporter().import_with_launches(fixture(name), {}, {});
}

TEST(KinetoFixtures, V100MatchesReadmeAndIndependentRead) {
    TOKENSCOPE_NEED_FIXTURE("kineto/hta_v100_ns_resolution_rank0.json.gz");
    const std::string name = "hta_v100_ns_resolution_rank0.json.gz";
    KinetoImport imp = import_fixture(name);
    Imported got = summarize(imp);
    // fixtures/README.md
    EXPECT_EQ(imp.stats.events, 68692);
    EXPECT_EQ(got.by_kind[ActivityKind::Kernel], 4350);
    EXPECT_EQ(got.by_kind[ActivityKind::Memcpy], 1600);
    EXPECT_EQ(got.by_kind[ActivityKind::Memset], 145);
    EXPECT_EQ(got.by_kind[ActivityKind::Api] + got.by_kind[ActivityKind::Sync], 15329);
    EXPECT_EQ(got.cpu_ranges, 23910);
    EXPECT_EQ(imp.stats.flow_events, 21424);
    // Independent read of the same file.
    Reference ref = read_reference(fixture(name));
    EXPECT_EQ(ref.events, imp.stats.events);
    EXPECT_EQ(ref.x_by_cat["kernel"], got.by_kind[ActivityKind::Kernel]);
    EXPECT_EQ(ref.x_by_cat["gpu_memcpy"], got.by_kind[ActivityKind::Memcpy]);
    EXPECT_EQ(ref.x_by_cat["gpu_memset"], got.by_kind[ActivityKind::Memset]);
    EXPECT_EQ(ref.x_by_cat["cpu_op"], got.cpu_ranges);
    EXPECT_EQ(ref.flows, imp.stats.flow_events);
    EXPECT_EQ(static_cast<std::int64_t>(ref.cpu_threads.size()), got.lanes[LaneKind::CpuThread]);
    EXPECT_EQ(static_cast<std::int64_t>(ref.gpu_streams.size()), got.lanes[LaneKind::GpuStream]);
    EXPECT_EQ(ref.kernels_with_launching_call, got.kernels_with_launching_call);
    EXPECT_GT(got.kernels_with_launching_call, 4000);
    EXPECT_EQ(imp.launches.size(), 4350u);
}

TEST(KinetoFixtures, V100TimesAreExactNanoseconds) {
    TOKENSCOPE_NEED_FIXTURE("kineto/hta_v100_ns_resolution_rank0.json.gz");
    KinetoImport imp = import_fixture("hta_v100_ns_resolution_rank0.json.gz");
    // First kernel in the file: "ts": 1712195495505582.988, "dur": 4.928, grid [4,106,1].
    auto it = std::find_if(imp.run.activities.begin(), imp.run.activities.end(), [](const auto& a) {
        return a.kind == ActivityKind::Kernel && a.start_ns == 1712195495505582988;
    });
    ASSERT_NE(it, imp.run.activities.end());
    EXPECT_EQ(it->end_ns, 1712195495505587916);
    EXPECT_EQ(it->correlation, 135071u);
    EXPECT_EQ(imp.run.device_of(*it), 0);
    auto index = static_cast<std::uint32_t>(it - imp.run.activities.begin());
    auto launch = std::find_if(imp.launches.begin(), imp.launches.end(),
                               [&](const auto& l) { return l.activity == index; });
    ASSERT_NE(launch, imp.launches.end());
    EXPECT_EQ(launch->grid, (std::array<std::int32_t, 3>{4, 106, 1}));
    EXPECT_EQ(launch->block, (std::array<std::int32_t, 3>{128, 1, 1}));
    EXPECT_EQ(launch->registers_per_thread, 30);
}

TEST(KinetoFixtures, V100RunInfoAndGpu) {
    TOKENSCOPE_NEED_FIXTURE("kineto/hta_v100_ns_resolution_rank0.json.gz");
    KinetoImport imp = import_fixture("hta_v100_ns_resolution_rank0.json.gz");
    const auto& info = imp.run.info;
    EXPECT_EQ(info.source, tokenscope::trace::Source::Kineto);
    EXPECT_EQ(info.clock, tokenscope::trace::ClockDomain::SourceFile);
    EXPECT_EQ(info.name, "hta_v100_ns_resolution_rank0");
    EXPECT_EQ(info.gpu.name, "Tesla V100-SXM2-32GB");
    EXPECT_EQ(info.gpu.sm_count, 80);
    EXPECT_DOUBLE_EQ(info.gpu.peak_bandwidth, 900e9);  // V100 SXM2 datasheet
    EXPECT_EQ(info.host, "twshared39868.02.pnb3.facebook.com");
    auto workload = nlohmann::json::parse(info.workload_json);
    EXPECT_EQ(workload["devices"][0]["totalGlobalMem"].get<std::int64_t>(), 34079637504);
    // Memcpy bytes come from args.bytes: sum them independently.
    nlohmann::json doc = nlohmann::json::parse(
        tokenscope::test::gunzip(fixture("hta_v100_ns_resolution_rank0.json.gz")));
    std::uint64_t ref_bytes = 0, got_bytes = 0;
    for (const auto& e : doc["traceEvents"])
        if (e.value("cat", "") == "gpu_memcpy")
            ref_bytes += e["args"]["bytes"].get<std::uint64_t>();
    for (const auto& a : imp.run.activities)
        if (a.kind == ActivityKind::Memcpy) got_bytes += a.bytes;
    EXPECT_EQ(got_bytes, ref_bytes);
    EXPECT_GT(ref_bytes, 0u);
}

TEST(KinetoFixtures, InferenceRank1) {
    TOKENSCOPE_NEED_FIXTURE("kineto/hta_inference_rank_1.json.gz");
    const std::string name = "hta_inference_rank_1.json.gz";
    KinetoImport imp = import_fixture(name);
    Imported got = summarize(imp);
    Reference ref = read_reference(fixture(name));
    EXPECT_EQ(got.by_kind[ActivityKind::Kernel], 4);  // README
    EXPECT_EQ(ref.x_by_cat["runtime"], 8);
    EXPECT_EQ(got.by_kind[ActivityKind::Api] + got.by_kind[ActivityKind::Sync], 8);
    EXPECT_EQ(imp.stats.flow_events, ref.flows);
    EXPECT_EQ(imp.stats.flow_events, 8);
    EXPECT_EQ(got.kernels_with_launching_call, ref.kernels_with_launching_call);
    EXPECT_EQ(got.kernels_with_launching_call, 4);
    EXPECT_EQ(static_cast<std::int64_t>(ref.gpu_streams.size()), got.lanes[LaneKind::GpuStream]);
    // "stream 7" from the thread_name metadata.
    bool named = false;
    for (const auto& l : imp.run.lanes) named = named || l.name == "GPU 0 stream 7";
    EXPECT_TRUE(named);
}

TEST(KinetoFixtures, A100CuptiProfilerKeepsUnknownCategories) {
    TOKENSCOPE_NEED_FIXTURE("kineto/hta_a100_cupti_profiler.json.gz");
    const std::string name = "hta_a100_cupti_profiler.json.gz";
    KinetoImport imp = import_fixture(name);
    Imported got = summarize(imp);
    Reference ref = read_reference(fixture(name));
    EXPECT_EQ(got.by_kind[ActivityKind::Api] + got.by_kind[ActivityKind::Sync],
              ref.x_by_cat["cuda_runtime"]);
    EXPECT_EQ(got.cpu_ranges, ref.x_by_cat["cpu_op"]);
    EXPECT_EQ(got.by_kind[ActivityKind::Kernel], 0);
    EXPECT_EQ(imp.run.info.gpu.name, "NVIDIA A100-PG509-200");
    EXPECT_EQ(imp.run.info.gpu.sm_count, 108);
    // cuda_profiler_range (77) and Trace (2) are not Kineto activity categories.
    std::int64_t unknown = ref.x_by_cat["cuda_profiler_range"] + ref.x_by_cat["trace"];
    EXPECT_EQ(unknown, 79);
    auto d = std::find_if(imp.run.diagnostics.begin(), imp.run.diagnostics.end(),
                          [](const auto& x) { return x.name == "kineto_unknown_category"; });
    ASSERT_NE(d, imp.run.diagnostics.end());
    EXPECT_EQ(d->value, static_cast<double>(unknown));
    EXPECT_NE(d->text.find("cuda_profiler_range (77)"), std::string::npos);
}

}  // namespace
