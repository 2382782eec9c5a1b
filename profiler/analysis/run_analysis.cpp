#include "run_analysis.h"

#include "coverage.h"

namespace tokenscope::analysis {

RunAnalysis analyse_run(const trace::RunData& run, const VerdictOptions& verdict_options,
                        const AttributionOptions& attribution_options,
                        const trace::StopToken& stop) {
    const Coverage coverage(run, attribution_options, stop);
    RunAnalysis out;
    out.steps = coverage.attribute(run.steps);
    out.assessment = assess_run(run, coverage, out.steps, verdict_options, stop);
    return out;
}

}  // namespace tokenscope::analysis
