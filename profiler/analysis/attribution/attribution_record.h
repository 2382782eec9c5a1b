#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attribution.h"
#include "coverage_figures.h"
#include "launch_delay_stream.h"
#include "role_breakdown.h"

namespace tokenscope::analysis {

// What a run's analysis reads of its activities, kept with the run (the step_attribution
// table, DESIGN.md section 17) so that a run of a billion activities is not read again for
// its breakdown: the steps' exact attribution, the coverage figures the verdict reads
// besides them, the launch-delay P95 and the GPU time per kernel role. The summaries,
// phases and verdict are made from it at each read (stored_analysis.h): that is cheap,
// and the verdict's thresholds may differ from one read to the next.
struct AttributionRecord {
    std::vector<StepAttribution> steps;          // run.steps[i]'s
    std::vector<RoleTimes> step_roles;           // RoleBreakdown::steps
    RoleTimes run_roles;                         // RoleBreakdown::run
    std::optional<UnionAttribution> iterations;  // CoverageFigures::iterations
    std::int64_t nvlink_active_ns = 0;           // CoverageFigures
    std::int64_t gpu_busy_ns = 0;                // CoverageFigures
    LaunchDelayP95 launch_delay;
};

// What the record is stored under: the options that change what it holds (name rules,
// driving lane) and the encoding's version, so a file written by a build with other
// default rules is analysed again rather than misread.
std::string attribution_record_key(const AttributionOptions& options);

// docs/file-format.md, step_attribution: chunk 0 the run's figures, then the steps,
// kStepsPerChunk to a chunk (a chunk stays far below SQLite's blob limit at any length).
inline constexpr std::size_t kStepsPerChunk = 4096;
std::vector<std::vector<std::uint8_t>> encode_attribution_record(const AttributionRecord& r);
// Throws store::StoreError naming `path` when the chunks are malformed: cut short,
// trailing bytes, counts that disagree, or a step whose parts do not sum to its length.
AttributionRecord decode_attribution_record(const std::vector<std::vector<std::uint8_t>>& chunks,
                                            const std::string& path);

}  // namespace tokenscope::analysis
