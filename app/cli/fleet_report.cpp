#include "fleet_report.h"

#include <ctime>
#include <ostream>

#include "cell_text.h"
#include "format.h"
#include "text_table.h"

namespace tokenscope::cli {
namespace {

using fleet::CalibrationState;

nlohmann::json opt(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json();
}
nlohmann::json opt(const std::optional<std::size_t>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json();
}

// Column headers: window end as HH:MM (UTC), with the date where the day changes.
std::string end_label(std::int64_t end_s, std::int64_t previous_s) {
    const std::time_t t = static_cast<std::time_t>(end_s);
    std::tm tm{};
    gmtime_r(&t, &tm);
    const bool new_day = previous_s < 0 || end_s / 86400 != previous_s / 86400;
    char buf[32];
    std::strftime(buf, sizeof buf, new_day ? "%m-%d %H:%M" : "%H:%M", &tm);
    return buf;
}

// Short enough for a column that the table does not wrap.
std::string calibration_text(const fleet::RowCalibration& c) {
    switch (c.state) {
        case CalibrationState::None:
            return "";
        case CalibrationState::Settling:
            return "settling@" + std::to_string(*c.started_at);
        case CalibrationState::Settled:
            return "settled@" + std::to_string(*c.settled_at);
    }
    return "";
}

}  // namespace

void print_fleet_text(const fleet::FleetMatrix& m, const std::string& source, std::ostream& out) {
    const auto& map = m.map;
    const auto& spec = m.spec;
    out << "fleet: " << source << '\n'
        << "q" << format_double(spec.quantile, 3) << " of " << spec.metric << " in ms, rows by "
        << spec.by << ", " << m.window_end_s.size() << " windows of "
        << fleet::format_duration(spec.window_s) << " ending "
        << fleet::format_rfc3339(m.window_end_s.back()) << "; blank = no observations\n"
        << "SLA = 1.2 x the row's peak over the first " << map.spec.sla_windows
        << " windows; recalibrate = 3 windows running above 0.9 x SLA;\n"
        << "calibration: 3 windows above 1.2 x threshold propose 1.2 x the 24 h peak, settled "
           "within 5% of the previous proposal\n\n";
    std::vector<std::string> header = {"row"};
    for (std::size_t c = 0; c < m.window_end_s.size(); ++c)
        header.push_back(end_label(m.window_end_s[c], c == 0 ? -1 : m.window_end_s[c - 1]));
    header.insert(header.end(), {"SLA", "recalibrate", "calibration", "threshold"});
    TextTable t(header);
    for (std::size_t r = 0; r < map.row_count(); ++r) {
        std::vector<std::string> row = {map.row_labels[r].empty() ? "(none)"
                                                                  : shorten(map.row_labels[r], 40)};
        for (std::size_t c = 0; c < map.column_count(); ++c) {
            const auto& p = map.at(r, c).p95;
            row.push_back(p ? format_ms(*p, 1) : "");
        }
        row.push_back(map.row_sla[r] ? format_ms(*map.row_sla[r], 1) : "");
        const auto& cal = m.calibration[r];
        row.push_back(map.row_flag[r] ? "from " + std::to_string(*map.row_flag[r]) : "");
        row.push_back(calibration_text(cal));
        // Settling: the proposal under way; otherwise the threshold in effect.
        const auto& shown = cal.state == CalibrationState::Settling ? cal.proposal : cal.threshold;
        row.push_back(shown ? format_ms(*shown, 1) : "");
        t.add_row(row);
    }
    t.print(out, false);
    out << "(column headers: window ends, UTC; windows numbered from 0; threshold: in effect, "
           "or the proposal while settling)\n";
}

nlohmann::json fleet_json(const fleet::FleetMatrix& m, const std::string& source) {
    const auto& map = m.map;
    nlohmann::json columns = nlohmann::json::array();
    for (std::size_t c = 0; c < map.column_count(); ++c)
        columns.push_back({{"start_ns", map.columns[c].start_ns},
                           {"end_ns", map.columns[c].end_ns},
                           {"end", fleet::format_rfc3339(m.window_end_s[c])}});
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t r = 0; r < map.row_count(); ++r) {
        nlohmann::json cells = nlohmann::json::array();
        for (std::size_t c = 0; c < map.column_count(); ++c)
            cells.push_back({{"quantile_ns", opt(map.at(r, c).p95)},
                             {"observations", m.observations_at(r, c)}});
        const auto& cal = m.calibration[r];
        rows.push_back({{"label", map.row_labels[r]},
                        {"sla_ns", opt(map.row_sla[r])},
                        {"recalibrate_from_window", opt(map.row_flag[r])},
                        {"calibration",
                         {{"state", fleet::to_string(cal.state)},
                          {"threshold_ns", opt(cal.threshold)},
                          {"proposal_ns", opt(cal.proposal)},
                          {"started_at_window", opt(cal.started_at)},
                          {"settled_at_window", opt(cal.settled_at)}}},
                        {"cells", cells}});
    }
    return {{"source", source},
            {"metric", m.spec.metric},
            {"by", m.spec.by},
            {"quantile", m.spec.quantile},
            {"window_ns", map.spec.window_size},
            {"sla_windows", map.spec.sla_windows},
            {"columns", columns},
            {"rows", rows}};
}

}  // namespace tokenscope::cli
