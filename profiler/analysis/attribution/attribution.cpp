#include "attribution.h"

#include "classifier.h"
#include "coverage.h"

namespace tokenscope::analysis {

std::optional<Category> classify(const trace::Activity& a, const trace::RunData& run,
                                 const AttributionOptions& options) {
    // The driving lane only matters for host work, which classify() does not cover.
    Classifier cls(run, options, -1);
    return cls.gpu_category(a);
}

std::vector<StepAttribution> attribute_steps(const trace::RunData& run,
                                             const AttributionOptions& options,
                                             const trace::StopToken& stop) {
    return Coverage(run, options, stop).attribute(run.steps);
}

StepAttribution attribute_range(const trace::RunData& run, std::int64_t t0, std::int64_t t1,
                                const AttributionOptions& options, const trace::StopToken& stop) {
    return Coverage(run, options, t0, t1, stop).attribute(t0, t1);
}

}  // namespace tokenscope::analysis
