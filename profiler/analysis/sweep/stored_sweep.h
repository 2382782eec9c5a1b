#pragma once

#include <map>
#include <string>
#include <vector>

#include "sweep_summary.h"

namespace tokenscope::store {
class SweepStore;
struct SweepInfo;
}  // namespace tokenscope::store

namespace tokenscope::analysis {

// One sweep of a .tokenscope file as sweep-report and the GUI's Sweep tab read it:
// its axes from the spec, its points with their runs' requests.
struct StoredSweep {
    std::string name;
    std::vector<std::string> axes;  // parameters that vary, in grid order
    std::vector<SweepPointRuns> points;
    bool model = false;  // any run from the model backends: titles say "(model)"
};

StoredSweep read_stored_sweep(const store::SweepStore& store, const store::SweepInfo& info);

// A point's parameters as text, from the sweep table's JSON object (numbers as JSON
// writes them); anything but an object gives none.
std::map<std::string, std::string> sweep_params_of(const std::string& params_json);
// Whether a run's workload JSON names the cost model or the serving model backend.
bool is_model_run(const std::string& workload_json);

}  // namespace tokenscope::analysis
