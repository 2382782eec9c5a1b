#include "sweep_loader.h"

#include <algorithm>
#include <exception>

#include "analysis/sweep/stored_sweep.h"
#include "store/sweep_store.h"

namespace tokenscope::ui {
// The last sweep of the file, read as sweep-report reads it.
SweepData load_sweep_data(const QString& path) {
    SweepData d;
    d.path = path;
    try {
        store::SweepStore store(path.toStdString(), /*read_only=*/true);
        const auto sweeps = store.sweeps();
        if (sweeps.empty()) return d;
        auto sweep = analysis::read_stored_sweep(store, sweeps.back());
        d.name = QString::fromStdString(sweep.name);
        d.axes = std::move(sweep.axes);
        d.points = std::move(sweep.points);
        d.model = sweep.model;
    } catch (const std::exception& e) {
        d.points.clear();
        d.error = QString::fromStdString(e.what());
    }
    return d;
}

std::string sweep_curve_x(const SweepData& d) {
    for (const char* load : {"qps", "arrival", "concurrency", "request_rate", "max_concurrency"})
        if (std::find(d.axes.begin(), d.axes.end(), load) != d.axes.end()) return load;
    for (const auto& a : d.axes) {
        bool numeric = !d.points.empty();
        for (const auto& p : d.points) {
            auto it = p.params.find(a);
            numeric = numeric && it != p.params.end() && !it->second.empty() &&
                      it->second.find_first_not_of("0123456789.") == std::string::npos;
        }
        if (numeric) return a;
    }
    return "throughput_tok_s";
}

}  // namespace tokenscope::ui
