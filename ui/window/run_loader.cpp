#include "run_loader.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <tuple>

#include "import/open_any.h"
#include "trace/activity_order.h"

namespace tokenscope::ui {

std::vector<trace::RunData> RunLoader::load(const std::string& path,
                                            const trace::ProgressFn& progress,
                                            const import::ImportOptions& options) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw std::runtime_error(path + ": no such file");
    if (std::filesystem::is_directory(path, ec))
        throw std::runtime_error(path + ": is a directory, not a trace file");
    std::vector<trace::RunData> runs;
    try {
        runs = import::open_any(path, options, progress);
    } catch (const trace::Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        // Engine errors name the file already; anything else gets the name here.
        const std::string what = e.what();
        if (what.find(path) != std::string::npos) throw;
        throw std::runtime_error(path + ": " + what);
    }
    if (runs.empty()) throw std::runtime_error(path + ": the file holds no runs");
    for (auto& r : runs) normalize(r);
    return runs;
}

void RunLoader::normalize(trace::RunData& run) {
    trace::sort_activities(run.activities);
    auto by_lane_time = [](const trace::CounterSample& a, const trace::CounterSample& b) {
        return std::tie(a.lane, a.time_ns) < std::tie(b.lane, b.time_ns);
    };
    if (!std::is_sorted(run.counters.begin(), run.counters.end(), by_lane_time))
        std::sort(run.counters.begin(), run.counters.end(), by_lane_time);
    // The hover finds a kernel's launch by binary search; a hand-built run may be unsorted.
    run.launches.finish();
    run.graphs.finish();
}

}  // namespace tokenscope::ui
