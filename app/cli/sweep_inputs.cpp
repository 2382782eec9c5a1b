#include "sweep_inputs.h"

#include <fstream>

#include "analysis/metrics/client_figures.h"
#include "analysis/sweep/stored_sweep.h"
#include "arg_parser.h"
#include "import/serving/serving_points.h"
#include "store/sweep_store.h"

namespace tokenscope::cli {
namespace {

bool is_sqlite(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char head[16] = {};
    in.read(head, sizeof head);
    return in.gcount() == 16 && std::string(head, 15) == "SQLite format 3";
}

SweepInput load_file(const std::string& path, std::int64_t sweep_id) {
    // Read-only and as it is: a file older than the sweep tables simply has no sweep.
    store::SweepStore store(path, /*read_only=*/true);
    auto sweeps = store.sweeps();
    if (sweeps.empty()) throw UsageError{"sweep-report: " + path + ": the file holds no sweep"};
    const store::SweepInfo* info = &sweeps.back();
    if (sweep_id != 0) {
        info = nullptr;
        for (const auto& s : sweeps)
            if (s.id == sweep_id) info = &s;
        if (!info)
            throw UsageError{"sweep-report: " + path + ": no sweep " + std::to_string(sweep_id)};
    }
    auto sweep = analysis::read_stored_sweep(store, *info);
    SweepInput in;
    in.source = path;
    in.name = std::move(sweep.name);
    in.model = sweep.model;
    in.axes = std::move(sweep.axes);
    in.points = std::move(sweep.points);
    return in;
}

}  // namespace

SweepInput load_sweep_input(const std::vector<std::string>& paths, std::int64_t sweep_id) {
    if (paths.empty()) throw UsageError{"sweep-report: FILE is required"};
    if (paths.size() == 1 && is_sqlite(paths[0])) return load_file(paths[0], sweep_id);
    SweepInput in;
    auto results = import::import_serving_points(paths);
    in.source = std::to_string(results.size()) + " serving-benchmark results";
    in.name = "serving benchmark";
    bool rates = false, concurrency = false;
    std::int64_t run_id = 0;
    for (std::size_t i = 0; i < results.size(); ++i) {
        auto& r = results[i];
        rates = rates || r.params.contains("request_rate");
        concurrency = concurrency || r.params.contains("max_concurrency");
        r.params["file"] = r.path;
        in.points.push_back({static_cast<std::int32_t>(i), std::move(r.params), {}});
        for (auto& run : r.runs) {
            // The requests the tool counted: inside its measurement window (guidellm).
            auto figures = analysis::read_client_figures(run.info);
            auto requests = figures.window ? analysis::inside_window(run, *figures.window).requests
                                           : std::move(run.requests);
            in.points.back().runs.push_back({++run_id, std::move(requests), {}});
        }
    }
    if (rates) in.axes.push_back("request_rate");
    if (concurrency) in.axes.push_back("max_concurrency");
    return in;
}

}  // namespace tokenscope::cli
