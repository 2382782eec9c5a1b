#include "alert_rules.h"

#include <charconv>
#include <ostream>
#include <string>

namespace tokenscope::fleet {
namespace {

// Shortest decimal that reads back to the same double.
std::string number(double v) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

// A YAML single-quoted scalar: only the quote itself needs escaping (doubled).
std::string yaml_quote(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

// A YAML comment stays one line whatever a label value holds.
std::string one_line(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text;
}

}  // namespace

void write_alert_rules(const FleetMatrix& m, std::ostream& out) {
    const FleetSpec& spec = m.spec;
    out << "# Tokenscope fleet SLA alerts: q" << number(spec.quantile) << " of " << spec.metric
        << " by " << spec.by << ", " << format_duration(spec.window_s) << " windows, thresholds "
        << "calibrated on "
        << format_rfc3339(m.window_end_s.empty() ? 0 : m.window_end_s.front() - spec.window_s)
        << " .. " << format_rfc3339(m.window_end_s.empty() ? 0 : m.window_end_s.back())
        << " (Tokenscope docs/fleet.md, SLA and calibration)\n"
        << "groups:\n"
        << "  - name: " << yaml_quote("tokenscope-fleet-" + spec.metric_key + "-by-" + spec.by)
        << "\n    rules:\n";
    std::size_t written = 0;
    for (std::size_t r = 0; r < m.map.row_count(); ++r) {
        const RowCalibration& cal = m.calibration[r];
        if (!cal.threshold) continue;
        const std::string& row = m.map.row_labels[r];
        const double threshold_s = *cal.threshold / kNsPerSecond;
        out << "      # " << spec.by << "=" << one_line(row) << ": threshold "
            << number(threshold_s) << " s ("
            << (cal.state == CalibrationState::Settled ? "settled calibration" : "SLA");
        if (cal.state == CalibrationState::Settling && cal.proposal)
            out << "; settling, latest proposal " << number(*cal.proposal / kNsPerSecond) << " s";
        out << ")\n"
            << "      - alert: " << kAlertName << "\n"
            << "        expr: "
            << yaml_quote(row_quantile_query(spec, row) + " > " + number(threshold_s)) << "\n"
            << "        for: "
            << format_duration(static_cast<std::int64_t>(kAlertForWindows) * spec.window_s) << "\n"
            << "        labels:\n"
            << "          severity: warning\n"
            // The row's own label keeps the rules distinct for promtool's duplicate lint.
            << "          " << spec.by << ": " << yaml_quote(row) << "\n";
        ++written;
    }
    if (written == 0) out << "      []\n";
}

}  // namespace tokenscope::fleet
