#include "fleet_report.h"

#include <ctime>
#include <ostream>

#include "cell_text.h"
#include "format.h"
#include "text_table.h"

namespace tokenscope::cli {
namespace {

using fleet::CalibrationState;

constexpr std::int64_t kNsPerS = 1'000'000'000;

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
    // Scrapes are taken at any second; windows of a range end on whole minutes.
    const bool seconds = end_s % 60 != 0;
    std::strftime(
        buf, sizeof buf,
        new_day ? (seconds ? "%m-%d %H:%M:%S" : "%m-%d %H:%M") : (seconds ? "%H:%M:%S" : "%H:%M"),
        &tm);
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

// The windows of a matrix from /metrics scrapes, and where each scrape's time is from.
void print_snapshot_windows(const fleet::FleetMatrix& m, std::ostream& out) {
    const auto& snap = *m.snapshot;
    if (snap.since_start) {
        out << "1 window since the server started ("
            << (snap.start_s ? fleet::format_rfc3339(*snap.start_s) : std::string("start unknown"))
            << ") up to the scrape at " << fleet::format_rfc3339(m.window_end_s.back())
            << "; the cumulative buckets as scraped; blank = no observations\n";
    } else {
        out << m.window_end_s.size() << (m.window_end_s.size() == 1 ? " window" : " windows")
            << " between " << snap.scrapes.size() << " scrapes of /metrics, "
            << fleet::format_rfc3339(snap.scrapes.front().at_s) << " to "
            << fleet::format_rfc3339(snap.scrapes.back().at_s)
            << ", each the differences of the cumulative buckets; blank = no observations\n";
    }
    out << "scrapes:";
    for (const auto& s : snap.scrapes)
        out << ' ' << s.where << " at " << fleet::format_rfc3339(s.at_s) << " (" << s.time_source
            << ')' << (&s == &snap.scrapes.back() ? "" : ";");
    out << '\n';
}

nlohmann::json snapshot_json(const fleet::SnapshotInfo& snap) {
    nlohmann::json scrapes = nlohmann::json::array();
    for (const auto& s : snap.scrapes)
        scrapes.push_back({{"at", fleet::format_rfc3339(s.at_s)},
                           {"at_ns", s.at_s * kNsPerS},
                           {"where", s.where},
                           {"time_source", s.time_source}});
    return {{"since_server_start", snap.since_start},
            {"server_start_ns", snap.start_s ? nlohmann::json(*snap.start_s * kNsPerS) : nullptr},
            {"scrapes", scrapes},
            {"diagnostics", snap.diagnostics}};
}

}  // namespace

void print_fleet_text(const fleet::FleetMatrix& m, const std::string& source, std::ostream& out) {
    const auto& map = m.map;
    const auto& spec = m.spec;
    out << "fleet: " << source << '\n'
        << "q" << format_double(spec.quantile, 3) << " of " << spec.metric << " in ms, rows by "
        << spec.by << ", ";
    if (m.snapshot)
        print_snapshot_windows(m, out);
    else
        out << m.window_end_s.size() << " windows of " << fleet::format_duration(spec.window_s)
            << " ending " << fleet::format_rfc3339(m.window_end_s.back())
            << "; blank = no observations\n";
    out << "SLA = 1.2 x the row's peak over the first " << map.spec.sla_windows
        << " windows; recalibrate = 3 windows running above 0.9 x SLA;\n"
        << "calibration: 3 windows above 1.2 x threshold propose 1.2 x the 24 h peak, settled "
           "within 5% of the previous proposal\n\n";
    std::vector<std::string> header = {"row"};
    for (std::size_t c = 0; c < m.window_end_s.size(); ++c)
        header.push_back(m.snapshot && m.snapshot->since_start
                             ? "since start"
                             : end_label(m.window_end_s[c], c == 0 ? -1 : m.window_end_s[c - 1]));
    header.insert(header.end(), {"SLA", "recalibrate", "calibration", "threshold"});
    TextTable t(header);
    for (std::size_t r = 0; r < map.row_count(); ++r) {
        std::vector<std::string> row = {map.row_labels[r].empty() ? "(none)"
                                                                  : shorten(map.row_labels[r], 40)};
        for (std::size_t c = 0; c < map.column_count(); ++c) {
            const auto& p = map.at(r, c).value;
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
    out << (m.snapshot ? "(column headers: the scrape that ends each window, UTC"
                       : "(column headers: window ends, UTC")
        << "; windows numbered from 0; threshold: in effect, or the proposal while settling)\n";
    if (m.snapshot)
        for (const auto& d : m.snapshot->diagnostics) out << "warning: " << d << '\n';
}

nlohmann::json fleet_json(const fleet::FleetMatrix& m, const std::string& source) {
    const auto& map = m.map;
    nlohmann::json columns = nlohmann::json::array();
    for (std::size_t c = 0; c < map.column_count(); ++c) {
        nlohmann::json column = {{"start_ns", map.columns[c].start_ns},
                                 {"end_ns", map.columns[c].end_ns},
                                 {"end", fleet::format_rfc3339(m.window_end_s[c])}};
        if (m.snapshot && m.snapshot->since_start) {
            column["label"] = "since the server started";
            if (!m.snapshot->start_s) column["start_ns"] = nullptr;  // not in the scrape
        }
        columns.push_back(column);
    }
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t r = 0; r < map.row_count(); ++r) {
        nlohmann::json cells = nlohmann::json::array();
        for (std::size_t c = 0; c < map.column_count(); ++c)
            cells.push_back({{"quantile_ns", opt(map.at(r, c).value)},
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
    nlohmann::json out = {{"source", source},
                          {"metric", m.spec.metric},
                          {"by", m.spec.by},
                          {"quantile", m.spec.quantile},
                          {"window_ns", map.spec.window_size},
                          {"sla_windows", map.spec.sla_windows},
                          {"columns", columns},
                          {"rows", rows}};
    if (m.snapshot) {
        out["snapshot"] = snapshot_json(*m.snapshot);
        out["window_ns"] = nullptr;  // windows lie between scrapes: see columns
    }
    return out;
}

}  // namespace tokenscope::cli
