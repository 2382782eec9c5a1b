#include "sweep_curve.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>

#include "kneedle.h"
#include "pareto_frontier.h"

namespace tokenscope::analysis {

double point_value(const SweepPointSummary& p, const std::string& name) {
    if (auto it = p.params.find(name); it != p.params.end()) {
        double v = 0.0;
        const std::string& t = it->second;
        auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        if (ec == std::errc() && ptr == t.data() + t.size()) return v;
        // "poisson:10" or "closed:16": the number after the kind is the load.
        if (auto colon = t.find(':'); colon != std::string::npos) {
            const std::string rest = t.substr(colon + 1, t.find(':', colon + 1) - colon - 1);
            auto [p2, ec2] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
            if (ec2 == std::errc() && p2 == rest.data() + rest.size()) return v;
        }
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (auto it = p.median.find(name); it != p.median.end()) return it->second;
    return std::numeric_limits<double>::quiet_NaN();
}

SweepCurve sweep_curve(const std::vector<SweepPointSummary>& points, const std::string& x_name,
                       const std::string& y_name) {
    SweepCurve c;
    c.x_name = x_name;
    c.y_name = y_name;
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < points.size(); ++i)
        if (!std::isnan(point_value(points[i], x_name)) &&
            !std::isnan(point_value(points[i], y_name)))
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return point_value(points[a], x_name) < point_value(points[b], x_name);
    });
    for (std::size_t i : order) {
        c.x.push_back(point_value(points[i], x_name));
        c.y.push_back(point_value(points[i], y_name));
        c.points.push_back(points[i].point);
    }
    c.frontier = pareto_frontier(c.x, c.y);
    c.fit = fit_power_law(c.x, c.y);
    c.knee = kneedle(c.x, c.y);
    return c;
}

}  // namespace tokenscope::analysis
