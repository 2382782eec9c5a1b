#include "run_analysis.h"

#include <future>

#include "coverage.h"
#include "launch_delay.h"

namespace tokenscope::analysis {

RunAnalysis analyse_run(const trace::RunData& run, const VerdictOptions& verdict_options,
                        const AttributionOptions& attribution_options,
                        const trace::StopToken& stop) {
    // The launch-delay rule reads only the activities, not the coverage, and the two are
    // the longest parts of the analysis (about 2 s each on a 10M-activity run): it runs
    // on a thread of its own meanwhile. A stop reaches both; should the coverage throw,
    // the future's destructor waits for the other thread, which stops at its next check.
    std::future<std::optional<double>> launch_delay =
        std::async(std::launch::async, [&run, &stop] { return launch_delay_p95(run, stop); });
    const Coverage coverage(run, attribution_options, stop);
    RunAnalysis out;
    out.steps = coverage.attribute(run.steps);
    // Kernel roles read only the activities too, but cost one pass over the GPU
    // operations with names classified once: on this thread, while the other finishes.
    out.roles = role_breakdown(run, stop);
    out.assessment =
        assess_run(run, coverage, out.steps, launch_delay.get(), verdict_options, stop);
    return out;
}

}  // namespace tokenscope::analysis
