#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tokenscope::fleet {

// One point of a range query: Unix seconds and the value (NaN, +Inf and -Inf kept).
struct Point {
    double t = 0;
    double v = 0;
};

// One series of a matrix result: its labels (without __name__) and points by time.
struct Series {
    std::vector<std::pair<std::string, std::string>> labels;
    std::vector<Point> points;

    const std::string* label(const std::string& name) const {
        for (const auto& [k, v] : labels)
            if (k == name) return &v;
        return nullptr;
    }
};

// A query_range answer: resultType "matrix", or, from a lenient server, "vector".
struct QueryResult {
    std::vector<Series> series;
    std::vector<std::string> warnings;
};

}  // namespace tokenscope::fleet
