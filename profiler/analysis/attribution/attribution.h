#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "category.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// Kernels of imported traces have no FLOPs/bytes: a name containing `pattern`
// (case-insensitive) is classified as `category` (GpuCompute or GpuMemory).
struct NameRule {
    std::string pattern;
    Category category = Category::GpuMemory;
};

// Compute patterns first (first match wins), so "gemm_reduce" stays compute:
// gemm, gemv, matmul, conv, attention, flash -> GpuCompute; memcpy, memset, copy,
// elementwise, reduce, norm, softmax, cat, fill, gather, embedding -> GpuMemory.
std::vector<NameRule> default_name_rules();

struct AttributionOptions {
    // First matching rule wins; an empty list leaves every unknown kernel unclassified.
    std::vector<NameRule> name_rules = default_name_rules();
    // The host thread whose API calls and ranges count as `cpu`; -1 = the CPU
    // thread lane with the most API calls.
    int driving_lane = -1;
};

struct StepAttribution {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    CategoryNs assigned{};  // sums exactly to end_ns - start_ns
    CategoryNs hidden{};    // time a category was active but a higher priority won
};

// Category of one GPU activity (kernel, memcpy, memset); nullopt for host activities.
// Kernels on CPU-thread lanes (the cpu backend's fp32 reference) are Cpu.
// Kernels: NCCL collectives (trace::is_collective_kernel) -> Nvlink where the run's GPU
// has NVLink links (GpuInfo::nvlink_links > 0), else Pcie; others:
// FLOPs/bytes against gpu.ridge_point() when both are known, else name rules,
// else GpuCompute (unclassified counts as compute, docs/attribution.md, Memory- or compute-bound
// kernels). An intensity exactly at the ridge point is compute-bound (the roofline's two limits
// meet there, and "memory-bound" is defined as strictly below). Copies: D2D -> GpuMemory, P2P ->
// Nvlink, H2D/D2H and copies of unknown direction -> Pcie, H2H -> Cpu (host work the driver does
// inside the copy call). Api/Sync/Range/Marker -> nullopt: they count as Cpu only on the driving
// lane (see Coverage).
std::optional<Category> classify(const trace::Activity& a, const trace::RunData& run,
                                 const AttributionOptions& options);

// One entry per run.steps[i], same order. Also usable for any [t0, t1) via attribute_range.
// Both throw trace::Cancelled once `stop` is requested (checked every few thousand
// elements). The algorithm: category_intervals.h (where each category is active) and
// coverage.h (the priority sweep); run_analysis.h attributes the steps and assesses the
// run from one coverage.
std::vector<StepAttribution> attribute_steps(const trace::RunData& run,
                                             const AttributionOptions& options = {},
                                             const trace::StopToken& stop = {});
StepAttribution attribute_range(const trace::RunData& run, std::int64_t t0, std::int64_t t1,
                                const AttributionOptions& options = {},
                                const trace::StopToken& stop = {});

}  // namespace tokenscope::analysis
