#include "breakdown_report.h"

#include "analysis/attribution/stored_analysis.h"
#include "analysis/attribution/stored_attribution.h"
#include "analysis/heatmap/batch_label.h"
#include "category_label.h"
#include "format.h"
#include "json_out.h"
#include "store/store_reader.h"
#include "terminal_progress.h"
#include "text_table.h"

namespace tokenscope::cli {

using analysis::kCategories;

Breakdown compute_breakdown(const trace::RunData& run) {
    return analysis::analyse_run(run);
}

Breakdown compute_breakdown(const LoadedRun& run, const ArgParser& p) {
    if (!run.data.in_file) return analysis::analyse_run(run.data);
    // load_inputs walked the tables of the run's rows; the activities' own table is walked
    // by the first read of it.
    const store::StoreReader reader(run.path, store::ReaderOptions::pass());
    // What the file's writer attributed (import, capture) is read in milliseconds.
    if (auto stored = analysis::read_stored_analysis(reader, run.data)) return *std::move(stored);
    TerminalProgress bar("analysing " + run.path, TerminalProgress::parse_mode(p.get("progress")));
    Breakdown b = analysis::analyse_stored_run(reader, run.data, {}, bar.callback());
    bar.finish();
    return b;
}

void attribute_written_runs(const std::string& path, const std::vector<std::int64_t>& runs,
                            TerminalProgress::Mode mode) {
    TerminalProgress bar("attributing " + path, mode);
    analysis::attribute_stored_runs(path, runs, {}, bar.callback());
    bar.finish();
}

namespace {

void print_categories(std::ostream& out, const analysis::StepSummary& s, bool csv) {
    TextTable t({"category", "total ms", "share", "hidden ms", "p95/step ms"});
    for (auto c : kCategories) {
        auto i = static_cast<std::size_t>(c);
        t.add_row({category_label(c, csv), format_ms(double(s.assigned_ns[i])),
                   format_percent(s.share[i]), format_ms(double(s.hidden_ns[i])),
                   format_ms(s.p95_ns[i])});
    }
    t.add_row({"total", format_ms(double(s.total_ns)), "100.0%", "", ""});
    t.print(out, csv);
}

// Rules measured in ns read better in ms; shares and fractions stay plain numbers.
std::string rule_number(const std::string& name, double v) {
    bool ns = name.size() > 3 && name.compare(name.size() - 3, 3, "_ns") == 0;
    return ns ? format_ms(v) + " ms" : format_double(v, 4);
}

// A value read from a histogram carries its bound: "12.3 ms ±0.8%".
std::string rule_value(const analysis::RuleResult& r) {
    std::string v = rule_number(r.name, r.value);
    if (r.relative_error > 0) v += " ±" + format_percent(r.relative_error, 1);
    return v;
}

void print_verdict(std::ostream& out, const analysis::Verdict& v, bool csv) {
    if (!csv) {
        out << "verdict: " << v.primary;
        if (!v.bound_by.empty()) out << " (" << v.bound_by << "-bound)";
        if (v.limited_by == "latency") out << ", latency-limited";
        if (v.primary == "gpu-bound" && v.achieved_bandwidth_fraction)
            out << ", achieved bandwidth " << format_percent(*v.achieved_bandwidth_fraction)
                << " of peak";
        if (!v.advice.empty()) out << ": " << v.advice;
        out << "\n\n";
    }
    TextTable t({"rule", "value", "threshold", "fired"});
    for (const auto& r : v.rules)
        t.add_row({r.name, r.available ? rule_value(r) : "n/a", rule_number(r.name, r.threshold),
                   !r.available ? "n/a" : (r.fired ? "yes" : "no")});
    t.print(out, csv);
}

void print_phases(std::ostream& out, const std::vector<analysis::PhaseSummary>& phases, bool csv) {
    std::vector<std::string> header = {"phase", "steps", "mean ms"};
    for (auto c : kCategories) header.push_back(category_label(c, csv) + " ms");
    TextTable t(header);
    for (const auto& p : phases) {
        std::vector<std::string> row = {std::string(to_string(p.phase)), std::to_string(p.count),
                                        format_ms(p.mean_ns)};
        for (auto c : kCategories)
            row.push_back(format_ms(p.mean_category_ns[static_cast<std::size_t>(c)]));
        t.add_row(row);
    }
    t.print(out, csv);
}

}  // namespace

void print_breakdown(std::ostream& out, const LoadedRun& run, const Breakdown& b, bool csv) {
    const auto& a = b.assessment;
    if (!csv) {
        out << "run: " << display_name(run.data) << "  (" << run.path << ")\n";
        if (run.data.info.is_model())
            out << "  MODEL: attribution of a cost-model run, not a measurement\n";
        out << "  steps: " << a.summary.steps << "\n\n";
    }
    print_categories(out, a.summary, csv);
    out << '\n';
    print_verdict(out, a.verdict, csv);
    out << '\n';
    print_phases(out, a.phases, csv);
    if (a.floor.distance_ns.count > 0 && !csv) {
        const auto& d = a.floor.distance_ns;
        const auto& r = a.floor.ratio;
        out << "\nroofline floor: " << d.count << " steps; distance to floor p50 "
            << format_ms(d.p50) << " ms, p95 " << format_ms(d.p95) << " ms; step/floor p50 "
            << format_double(r.p50, 2) << "x, p95 " << format_double(r.p95, 2) << "x\n";
    }
    if (!csv) out << '\n';
}

void print_step_rows(std::ostream& out, const LoadedRun& run, const Breakdown& b, bool csv) {
    std::vector<std::string> header = {"request", "index", "phase", "start ms", "duration ms"};
    for (auto c : kCategories) header.push_back(category_label(c, csv) + " ms");
    header.insert(header.end(), {"floor ms", "above floor ms", "batch"});
    TextTable t(header);
    const auto& steps = run.data.steps;
    for (std::size_t i = 0; i < steps.size() && i < b.steps.size(); ++i) {
        const auto& s = steps[i];
        std::vector<std::string> row = {
            std::to_string(s.request), std::to_string(s.index), std::string(to_string(s.phase)),
            format_ms(double(s.start_ns)), format_ms(double(s.duration_ns()))};
        for (auto c : kCategories)
            row.push_back(format_ms(double(b.steps[i].assigned[static_cast<std::size_t>(c)])));
        row.push_back(s.floor_ns > 0 ? format_ms(double(s.floor_ns)) : "");
        row.push_back(s.floor_ns > 0 ? format_ms(double(s.duration_ns() - s.floor_ns)) : "");
        row.push_back(analysis::describe_batch(s.batch));
        t.add_row(row);
    }
    t.print(out, csv);
}

nlohmann::json breakdown_json(const LoadedRun& run, const Breakdown& b, bool with_steps) {
    const auto& a = b.assessment;
    nlohmann::json rules = nlohmann::json::array();
    for (const auto& r : a.verdict.rules)
        rules.push_back({{"name", r.name},
                         {"value", r.value},
                         {"threshold", r.threshold},
                         {"available", r.available},
                         {"fired", r.fired},
                         {"relative_error", r.relative_error}});
    nlohmann::json shares = nlohmann::json::object(), p95 = nlohmann::json::object();
    for (auto c : kCategories) {
        auto i = static_cast<std::size_t>(c);
        shares[std::string(to_string(c))] = a.summary.share[i];
        p95[std::string(to_string(c))] = a.summary.p95_ns[i];
    }
    nlohmann::json phases = nlohmann::json::array();
    for (const auto& p : a.phases) {
        nlohmann::json cats = nlohmann::json::object();
        for (auto c : kCategories)
            cats[std::string(to_string(c))] = p.mean_category_ns[static_cast<std::size_t>(c)];
        phases.push_back({{"phase", to_string(p.phase)},
                          {"count", p.count},
                          {"mean_ns", p.mean_ns},
                          {"mean_category_ns", cats}});
    }
    nlohmann::json out = {
        {"file", run.path},
        {"name", run.data.info.name},
        {"is_model", run.data.info.is_model()},
        {"steps", a.summary.steps},
        {"total_ns", a.summary.total_ns},
        {"assigned_ns", to_json(a.summary.assigned_ns)},
        {"hidden_ns", to_json(a.summary.hidden_ns)},
        {"share", shares},
        {"p95_per_step_ns", p95},
        {"verdict",
         {{"primary", a.verdict.primary},
          {"bound_by", a.verdict.bound_by},
          {"limited_by", a.verdict.limited_by},
          {"advice", a.verdict.advice},
          {"achieved_bandwidth_fraction",
           a.verdict.achieved_bandwidth_fraction
               ? nlohmann::json(*a.verdict.achieved_bandwidth_fraction)
               : nlohmann::json()},
          {"rules", rules}}},
        {"phases", phases},
        {"floor",
         {{"distance_ns", to_json(a.floor.distance_ns)}, {"ratio", to_json(a.floor.ratio)}}}};
    if (with_steps) {
        nlohmann::json rows = nlohmann::json::array();
        const auto& steps = run.data.steps;
        for (std::size_t i = 0; i < steps.size() && i < b.steps.size(); ++i) {
            nlohmann::json row = {{"request", steps[i].request},
                                  {"index", steps[i].index},
                                  {"phase", to_string(steps[i].phase)},
                                  {"start_ns", steps[i].start_ns},
                                  {"end_ns", steps[i].end_ns},
                                  {"floor_ns", steps[i].floor_ns},
                                  {"assigned_ns", to_json(b.steps[i].assigned)},
                                  {"hidden_ns", to_json(b.steps[i].hidden)}};
            // An engine iteration's batch from its marker; -1 where the marker is silent.
            if (const auto& c = steps[i].batch; c.known())
                row["batch"] = {{"prefill_requests", c.prefill_requests},
                                {"prefill_tokens", c.prefill_tokens},
                                {"decode_requests", c.decode_requests},
                                {"decode_tokens", c.decode_tokens},
                                {"prefill_key_tokens", c.prefill_key_tokens},
                                {"decode_key_tokens", c.decode_key_tokens}};
            // An iteration framed by a marker: where the marker ended (the step runs on
            // over the GPU work it launched, docs/engine-traces.md, Iteration windows).
            if (steps[i].marker_end_ns != 0) row["marker_end_ns"] = steps[i].marker_end_ns;
            rows.push_back(row);
        }
        out["step_rows"] = rows;
    }
    return out;
}

}  // namespace tokenscope::cli
