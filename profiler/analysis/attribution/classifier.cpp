#include "classifier.h"

#include <algorithm>
#include <cctype>

#include "trace/collective.h"

namespace tokenscope::analysis {
namespace {

using trace::ActivityKind;
using trace::CopyKind;

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::optional<Category> copy_category(CopyKind kind) {
    switch (kind) {
        case CopyKind::D2D:
            return Category::GpuMemory;
        case CopyKind::P2P:
            return Category::Nvlink;
        case CopyKind::H2H:
            return Category::Cpu;
        // A copy whose direction was lost is most likely a host transfer.
        case CopyKind::H2D:
        case CopyKind::D2H:
        case CopyKind::None:
            return Category::Pcie;
    }
    return Category::Pcie;
}

bool is_host_work(ActivityKind kind) {
    return kind == ActivityKind::Api || kind == ActivityKind::Sync || kind == ActivityKind::Range;
}

}  // namespace

std::vector<NameRule> default_name_rules() {
    std::vector<NameRule> rules;
    for (const char* p : {"gemm", "gemv", "matmul", "conv", "attention", "flash"})
        rules.push_back({p, Category::GpuCompute});
    for (const char* p : {"memcpy", "memset", "copy", "elementwise", "reduce", "norm", "softmax",
                          "cat", "fill", "gather", "embedding"})
        rules.push_back({p, Category::GpuMemory});
    return rules;
}

int resolve_driving_lane(const trace::RunData& run, int requested, const trace::StopToken& stop) {
    auto is_cpu = [&](std::size_t lane) {
        return lane < run.lanes.size() && run.lanes[lane].kind == trace::LaneKind::CpuThread;
    };
    if (requested >= 0) return is_cpu(static_cast<std::size_t>(requested)) ? requested : -1;
    std::vector<std::int64_t> api(run.lanes.size(), 0), ranges(run.lanes.size(), 0);
    trace::for_each_stoppable(run.activities, stop, [&](const trace::Activity& a) {
        if (!is_cpu(a.lane)) return;
        if (a.kind == ActivityKind::Api || a.kind == ActivityKind::Sync) ++api[a.lane];
        if (a.kind == ActivityKind::Range) ++ranges[a.lane];
    });
    return driving_lane_of_counts(api, ranges);
}

int driving_lane_of_counts(const std::vector<std::int64_t>& api,
                           const std::vector<std::int64_t>& ranges) {
    for (const auto* counts : {&api, &ranges}) {
        auto best = std::max_element(counts->begin(), counts->end());
        if (best != counts->end() && *best > 0) return static_cast<int>(best - counts->begin());
    }
    return -1;
}

Classifier::Classifier(const trace::RunData& run, const AttributionOptions& options,
                       int driving_lane)
    : run_(run),
      ridge_(run.info.gpu.ridge_point()),
      name_cache_(run.strings.size(), 0),
      driving_lane_(driving_lane) {
    for (const auto& r : options.name_rules) rules_.push_back({lower(r.pattern), r.category});
}

std::optional<Category> Classifier::by_name(std::uint32_t name) {
    if (name >= name_cache_.size()) name_cache_.resize(name + 1, 0);
    if (name_cache_[name] == 0) {
        std::string text = lower(run_.strings.str(name));
        name_cache_[name] = 1;
        // A collective moves data between GPUs: over NVLink where the GPUs have it,
        // else over PCIe. Before the rules, which would take "AllReduce" for a reduce.
        if (trace::is_collective_kernel(text)) {
            const Category c = run_.info.gpu.nvlink_links > 0 ? Category::Nvlink : Category::Pcie;
            name_cache_[name] = static_cast<std::uint8_t>(2 + static_cast<int>(c));
            return c;
        }
        for (const auto& r : rules_) {
            if (!r.pattern.empty() && text.find(r.pattern) != std::string::npos) {
                name_cache_[name] = static_cast<std::uint8_t>(2 + static_cast<int>(r.category));
                break;
            }
        }
    }
    if (name_cache_[name] == 1) return std::nullopt;
    return static_cast<Category>(name_cache_[name] - 2);
}

std::optional<Category> Classifier::kernel_category(const trace::Activity& a) {
    const std::optional<Category> named = by_name(a.name);                   // cached per name
    if (named == Category::Nvlink || named == Category::Pcie) return named;  // a collective
    if (a.flops > 0 && a.bytes > 0 && ridge_ > 0) {
        double intensity = static_cast<double>(a.flops) / static_cast<double>(a.bytes);
        return intensity < ridge_ ? Category::GpuMemory : Category::GpuCompute;
    }
    if (named) return named;
    return Category::GpuCompute;  // unclassified counts as compute
}

std::optional<Category> Classifier::gpu_category(const trace::Activity& a) {
    switch (a.kind) {
        case ActivityKind::Kernel:
            // The cpu backend runs its "kernels" on host threads: that is CPU time.
            if (a.lane < run_.lanes.size() && run_.lanes[a.lane].kind == trace::LaneKind::CpuThread)
                return Category::Cpu;
            return kernel_category(a);
        case ActivityKind::Memset:
            return Category::GpuMemory;
        case ActivityKind::Memcpy:
            return copy_category(a.copy);
        default:
            return std::nullopt;
    }
}

std::uint8_t Classifier::mask_of(const trace::Activity& a) {
    if (is_host_work(a.kind)) {
        bool driving = driving_lane_ >= 0 && a.lane == static_cast<std::uint16_t>(driving_lane_);
        return driving ? std::uint8_t(1u << static_cast<int>(Category::Cpu)) : std::uint8_t(0);
    }
    auto c = gpu_category(a);
    return c ? static_cast<std::uint8_t>(1u << static_cast<int>(*c)) : std::uint8_t(0);
}

}  // namespace tokenscope::analysis
