#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tokenscope::fleet {

// A label set as written, e.g. {model_name="x",le="0.5"}: (name, value) pairs.
using Labels = std::vector<std::pair<std::string, std::string>>;

// One sample line of the Prometheus text exposition format or of OpenMetrics:
// `name{labels} value [timestamp]`, with an OpenMetrics exemplar (`# {...} v t`)
// after the value or timestamp skipped. The timestamp is as written (seconds in
// OpenMetrics, milliseconds in the Prometheus text format).
struct SampleLine {
    std::string_view name;
    Labels labels;  // in the order written
    double value = 0;
    std::optional<double> timestamp;
};

// Throws std::invalid_argument "line N: problem".
[[noreturn]] void throw_line_error(std::size_t line, const std::string& problem);

// A sample value or timestamp: a float, NaN, +Inf or -Inf; throws "line N: 'x' is
// not a number".
double parse_exposition_number(std::string_view text, std::size_t line);

// The sample on `line` (its number is `line_no`); nullopt for a comment or a blank
// line. Throws std::invalid_argument "line N: problem" for a malformed line.
std::optional<SampleLine> parse_sample_line(std::string_view line, std::size_t line_no);

// Calls `each(line, line_no)` for every line of `text` (1-based, without the line
// ending; a trailing '\r' is dropped).
template <typename Fn>
void for_each_line(std::string_view text, Fn&& each) {
    std::size_t line_no = 0;
    while (!text.empty()) {
        const std::size_t nl = std::min(text.find('\n'), text.size());
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(std::min(nl + 1, text.size()));
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        each(line, line_no);
    }
}

}  // namespace tokenscope::fleet
