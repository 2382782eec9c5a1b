#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tokenscope::capture {

// One axis of a sweep: a parameter name and its values as the user typed them
// after expansion ("128:1024:x2" becomes "128", "256", "512", "1024").
struct SweepAxis {
    std::string name;
    std::vector<std::string> values;
};

// Expands a typed grid: comma-separated items, each a value or a range
// FROM:TO:xF (geometric, factor F > 1) or FROM:TO:+S (arithmetic, step S > 0);
// TO is included when the progression meets it. Numbers may be fractional for
// a range ("0.5:2:+0.5"). Throws std::invalid_argument naming the problem.
std::vector<std::string> expand_axis(const std::string& text);

// TEXT cut at every SEP, empty fields kept ("a::b" is "a", "", "b"): the one
// splitter of the sweep's typed lists (grid items and ranges, strategies,
// arrivals, tenant classes).
std::vector<std::string> split_fields(const std::string& text, char sep);

// The cartesian product of the axes; the last axis varies fastest. Each point
// lists one value per axis, in axis order. An empty axis list is one point.
class SweepGrid {
  public:
    explicit SweepGrid(std::vector<SweepAxis> axes);

    std::int64_t size() const { return size_; }
    const std::vector<SweepAxis>& axes() const { return axes_; }
    // Values of point i (0..size()-1), one per axis.
    std::vector<std::string> point(std::int64_t index) const;

  private:
    std::vector<SweepAxis> axes_;
    std::int64_t size_ = 1;
};

}  // namespace tokenscope::capture
