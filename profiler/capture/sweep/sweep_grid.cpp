#include "capture/sweep/sweep_grid.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace tokenscope::capture {
namespace {

// A grid that would take days to run is a typo, not a plan.
constexpr std::size_t kMaxAxisValues = 10000;

double number(const std::string& item, const std::string& text) {
    double v = 0.0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc() || ptr != end || !std::isfinite(v))
        throw std::invalid_argument("'" + item + "': '" + text + "' is not a number");
    return v;
}

// Integers print without a decimal point, so "1:4:+1" gives "1", "2", ...
std::string format(double v) {
    if (std::abs(v - std::round(v)) < 1e-9 * std::max(1.0, std::abs(v)))
        return std::to_string(static_cast<long long>(std::llround(v)));
    char buf[32];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, ptr);
}

void expand_range(const std::string& item, const std::vector<std::string>& parts,
                  std::vector<std::string>& out) {
    const double from = number(item, parts[0]);
    const double to = number(item, parts[1]);
    const std::string& step = parts[2];
    if (step.size() < 2 || (step[0] != 'x' && step[0] != '+'))
        throw std::invalid_argument("'" + item + "': the step must be xFACTOR or +STEP");
    const double by = number(item, step.substr(1));
    const bool geometric = step[0] == 'x';
    if (geometric ? !(by > 1.0 && from > 0.0) : !(by > 0.0))
        throw std::invalid_argument("'" + item + "': " +
                                    (geometric ? "a geometric range needs FROM > 0 and factor > 1"
                                               : "an arithmetic range needs a step > 0"));
    if (to < from) throw std::invalid_argument("'" + item + "': TO is below FROM");
    const double slack = 1e-9 * std::max(1.0, std::abs(to));
    for (std::size_t k = 0;; ++k) {
        // Computed from FROM each time, so a long range does not accumulate rounding.
        const double v = geometric ? from * std::pow(by, static_cast<double>(k))
                                   : from + by * static_cast<double>(k);
        if (v > to + slack) break;
        if (out.size() >= kMaxAxisValues)
            throw std::invalid_argument("'" + item + "': more than 10000 values");
        out.push_back(format(v));
    }
}

}  // namespace

std::vector<std::string> expand_axis(const std::string& text) {
    if (text.empty()) throw std::invalid_argument("empty value list");
    std::vector<std::string> out;
    for (const std::string& item : split_fields(text, ',')) {
        if (item.empty()) throw std::invalid_argument("'" + text + "': empty item");
        std::vector<std::string> parts = split_fields(item, ':');
        // A range has exactly three parts and a numeric start; "beam:4" is a value.
        const bool range = parts.size() == 3 && !parts[2].empty() &&
                           (parts[2][0] == 'x' || parts[2][0] == '+') && !parts[0].empty() &&
                           (std::isdigit(static_cast<unsigned char>(parts[0][0])) ||
                            parts[0][0] == '.' || parts[0][0] == '-');
        if (range)
            expand_range(item, parts, out);
        else
            out.push_back(item);
    }
    return out;
}

SweepGrid::SweepGrid(std::vector<SweepAxis> axes) : axes_(std::move(axes)) {
    for (const auto& a : axes_) {
        if (a.values.empty()) throw std::invalid_argument("axis '" + a.name + "' has no values");
        size_ *= static_cast<std::int64_t>(a.values.size());
        if (size_ > 1'000'000) throw std::invalid_argument("the grid has over a million points");
    }
}

std::vector<std::string> SweepGrid::point(std::int64_t index) const {
    if (index < 0 || index >= size_)
        throw std::out_of_range("point " + std::to_string(index) + " outside the grid");
    std::vector<std::string> out(axes_.size());
    for (std::size_t i = axes_.size(); i-- > 0;) {
        const auto n = static_cast<std::int64_t>(axes_[i].values.size());
        out[i] = axes_[i].values[static_cast<std::size_t>(index % n)];
        index /= n;
    }
    return out;
}

std::vector<std::string> split_fields(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t at; (at = text.find(sep, start)) != std::string::npos; start = at + 1)
        out.push_back(text.substr(start, at - start));
    out.push_back(text.substr(start));
    return out;
}

}  // namespace tokenscope::capture
