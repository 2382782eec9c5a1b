#pragma once

#include <cstdint>
#include <vector>

#include "attribution.h"
#include "role_breakdown.h"
#include "verdict.h"

namespace tokenscope::analysis {

// What every view of one run shows of its attribution: the per-step attribution and
// the assessment (summary, phases, floor, verdict), both from ONE coverage of the run.
// The GUI produces it once per opened run and every view reads it; the CLI's breakdown
// prints it.
struct RunAnalysis {
    std::vector<StepAttribution> steps;  // steps[i] belongs to run.steps[i]
    RunAssessment assessment;
    RoleBreakdown roles;  // GPU time per kernel role, per step, phase and run
};

// Builds the run's coverage once, attributes every step from it and assesses the run
// with the same coverage; sums GPU time per kernel role. Throws trace::Cancelled once
// `stop` is requested.
RunAnalysis analyse_run(const trace::RunData& run, const VerdictOptions& verdict_options = {},
                        const AttributionOptions& attribution_options = {},
                        const trace::StopToken& stop = {});

}  // namespace tokenscope::analysis
