#include "diff_report.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/kernel_name.h"
#include "category_label.h"
#include "cell_text.h"
#include "format.h"
#include "json_out.h"
#include "text_table.h"

namespace tokenscope::cli {
namespace {

std::string pct(const std::optional<double>& v) {
    return v ? format_double(*v, 1) + "%" : std::string();
}

void print_metrics(std::ostream& out, const analysis::RunDiff& d, bool csv) {
    TextTable t({"metric (ms)", "A mean", "B mean", "delta", "delta %", "A p95", "B p95",
                 "p95 delta %", "p-value", "significant"});
    for (const auto& m : d.metrics) {
        if (m.a.count == 0 && m.b.count == 0) continue;
        t.add_row({std::string(m.name), format_ms(m.mean.a), format_ms(m.mean.b),
                   format_ms(m.mean.delta), pct(m.mean.delta_pct), format_ms(m.p95.a),
                   format_ms(m.p95.b), pct(m.p95.delta_pct),
                   std::isnan(m.test.p_value) ? "" : format_double(m.test.p_value, 4),
                   m.significant ? "yes" : "no"});
    }
    t.print(out, csv);
}

const std::vector<std::string> kKernelHeader = {"kernel",        "A count",     "B count",
                                                "A total ms",    "B total ms",  "total delta ms",
                                                "mean delta us", "p95 delta us"};

// The kernel column of the text table: what the terminal leaves beside the number
// columns, 24 to 60 columns (Tensile's Cijk_* names run to hundreds with nothing a short
// name could drop; --csv and --json keep them whole).
std::size_t name_columns() {
    std::size_t numbers = 0;
    for (std::size_t i = 1; i < kKernelHeader.size(); ++i)
        numbers += display_width(kKernelHeader[i]) + 2;
    const std::size_t columns = terminal_columns();
    return std::clamp<std::size_t>(columns > numbers ? columns - numbers : 0, 24, 60);
}

std::string only_tag(const analysis::NameDiff& n) {
    return std::string(n.in_a ? "" : " [B only]") + (n.in_b ? "" : " [A only]");
}

// The first `shown` kernels' text labels: the short name cut to the column with its
// [A only]/[B only] tag, and " #k" where two different kernels would read the same.
std::vector<std::string> text_names(const std::vector<analysis::NameDiff>& names,
                                    std::size_t shown) {
    const std::size_t width = name_columns();
    std::vector<std::string> out;
    std::map<std::string, int> seen;
    for (std::size_t i = 0; i < shown; ++i) {
        const std::size_t room = width - display_width(only_tag(names[i]));
        ++seen[out.emplace_back(shorten(analysis::short_kernel_name(names[i].name), room))];
    }
    std::map<std::string, int> next;
    for (std::size_t i = 0; i < shown; ++i) {
        std::string& label = out[i];
        if (seen[label] > 1) {
            const std::string suffix = " #" + std::to_string(++next[label]);
            const std::size_t room = width - display_width(only_tag(names[i]) + suffix);
            label = shorten(label, room) + suffix;
        }
        label += only_tag(names[i]);
    }
    return out;
}

void print_names(std::ostream& out, const std::vector<analysis::NameDiff>& names, std::size_t top,
                 bool csv) {
    TextTable t(kKernelHeader);
    const std::size_t shown = csv ? names.size() : std::min(top, names.size());
    const std::vector<std::string> labels =
        csv ? std::vector<std::string>() : text_names(names, shown);
    for (std::size_t i = 0; i < shown; ++i) {
        const auto& n = names[i];
        // The text table shows the short name; CSV (and JSON) keep the full one.
        t.add_row({csv ? n.name + only_tag(n) : labels[i], std::to_string(n.a.count),
                   std::to_string(n.b.count), format_ms(double(n.a.total_ns)),
                   format_ms(double(n.b.total_ns)), format_ms(double(n.total_delta_ns)),
                   format_double(n.mean_delta_ns / 1e3, 2),
                   format_double(n.p95_delta_ns / 1e3, 2)});
    }
    t.print(out, csv);
}

std::string phase_name(trace::Phase phase) {
    return phase == trace::Phase::Prefill ? "prefill" : "decode";
}

// Per phase: counts, P50, P95 and mean of the windows in A and B, and the test.
void print_iteration_phases(std::ostream& out, const analysis::IterationDiff& it, bool csv) {
    std::vector<std::string> header = {"phase",    "A n",           "B n",          "aligned",
                                       "A p50 ms", "B p50 ms",      "p50 delta ms", "A p95 ms",
                                       "B p95 ms", "mean delta ms", "p-value",      "significant"};
    if (csv) header.push_back("sentence");  // the text prints it above the table
    TextTable t(header);
    for (const auto& d : it.phases) {
        const bool both = !d.a.steps.empty() && !d.b.steps.empty();
        auto ms = [](const analysis::IterationSide& s, double v) {
            return s.steps.empty() ? std::string() : format_ms(v);
        };
        std::vector<std::string> row = {
            phase_name(d.phase),
            std::to_string(d.a.steps.size()),
            std::to_string(d.b.steps.size()),
            std::to_string(d.pairs.size()),
            ms(d.a, d.a.duration.p50),
            ms(d.b, d.b.duration.p50),
            both ? format_ms(d.p50_delta_ns) : "",
            ms(d.a, d.a.duration.p95),
            ms(d.b, d.b.duration.p95),
            both ? format_ms(d.mean_delta_ns) : "",
            std::isnan(d.test.p_value) ? "" : format_double(d.test.p_value, 4),
            d.significant ? "yes" : "no"};
        if (csv) row.push_back(d.sentence);
        t.add_row(row);
    }
    t.print(out, csv);
}

// Per phase: the P50 delta in parts (per-iteration means), the rest and the P50 itself,
// so each column sums to its P50. The text leaves out roles neither run has.
void print_iteration_parts(std::ostream& out, const analysis::IterationDiff& it, bool csv) {
    TextTable t({"phase", "part (per iteration)", "A ms", "B ms", "delta ms"});
    for (const auto& d : it.phases) {
        if (d.parts.empty()) continue;
        const std::string phase = phase_name(d.phase);
        for (const auto& p : d.parts)
            if (csv || p.a_ns != 0 || p.b_ns != 0)
                t.add_row({phase, analysis::part_name(p), format_ms(p.a_ns), format_ms(p.b_ns),
                           format_ms(p.delta_ns)});
        const double rest_a = d.a.duration.p50 - d.a.duration.mean;
        const double rest_b = d.b.duration.p50 - d.b.duration.mean;
        t.add_row(
            {phase, "P50 - mean", format_ms(rest_a), format_ms(rest_b), format_ms(d.rest_ns)});
        t.add_row({phase, "iteration P50", format_ms(d.a.duration.p50), format_ms(d.b.duration.p50),
                   format_ms(d.p50_delta_ns)});
    }
    t.print(out, csv);
}

void print_iteration_summary(std::ostream& out, const analysis::IterationDiff& it) {
    out << "engine iterations aligned by phase and index:";
    for (const auto& d : it.phases)
        out << (&d == &it.phases.front() ? " " : "; ") << phase_name(d.phase) << ' '
            << d.pairs.size() << " (A " << d.a.steps.size() << ", B " << d.b.steps.size() << ")";
    out << '\n';
    // The sentence may carry a caution (a trace that began mid-queue): wrapped to fit.
    const std::size_t width = std::max<std::size_t>(terminal_columns(), 40) - 2;
    for (const auto& d : it.phases)
        for (const auto& line : wrap_text(d.sentence, width)) out << "  " << line << '\n';
    out << '\n';
}

void print_categories(std::ostream& out, const analysis::RunDiff& d, bool csv) {
    TextTable t({"category", "A ms", "B ms", "delta ms"});
    for (const auto& c : d.categories)
        t.add_row({category_label(c.category, csv), format_ms(double(c.a_ns)),
                   format_ms(double(c.b_ns)), format_ms(double(c.delta_ns))});
    t.print(out, csv);
}

}  // namespace

void print_diff(std::ostream& out, const LoadedRun& a, const LoadedRun& b,
                const analysis::RunDiff& d, std::size_t top, bool csv) {
    if (!csv) {
        out << "A: " << display_name(a.data) << "  (" << a.path << ")\n"
            << "B: " << display_name(b.data) << "  (" << b.path << ")\n";
        if (a.data.info.is_model() || b.data.info.is_model())
            out << "  MODEL: at least one side is a cost-model run, not a measurement\n";
        out << "steps aligned by (request, index): " << d.steps.size() << ", only in A "
            << d.steps_only_a << ", only in B " << d.steps_only_b
            << "; significance: Mann-Whitney U, p < 0.01\n\n";
        if (!d.iterations.empty()) {
            print_iteration_summary(out, d.iterations);
            print_iteration_phases(out, d.iterations, false);
            out << '\n';
            print_iteration_parts(out, d.iterations, false);
            out << '\n';
        }
    }
    print_metrics(out, d, csv);
    out << '\n';
    print_categories(out, d, csv);
    out << '\n';
    print_names(out, d.kernels, top, csv);
    if (!csv && d.kernels.size() > top)
        out << "(" << d.kernels.size() - top << " more kernels; --top N or --csv for all)\n";
    if (!csv && !d.kernels.empty())
        out << "(kernel names shortened to the terminal's width; --csv and --json give them "
               "whole)\n";
    // A run read from its file has each name's P95 from a duration histogram.
    double bound = 0;
    for (const auto& n : d.kernels) bound = std::max({bound, n.a.p95_error, n.b.p95_error});
    if (!csv && bound > 0)
        out << "(P95 of a run read from its .tokenscope file: from duration histograms, each "
               "within ±"
            << format_percent(bound, 1) << "; counts, totals and means exact)\n";
    out << '\n';
    // CSV: the iteration tables after the others, which keep their places.
    if (csv && !d.iterations.empty()) {
        print_iteration_phases(out, d.iterations, true);
        out << '\n';
        print_iteration_parts(out, d.iterations, true);
        out << '\n';
    }
}

namespace {

nlohmann::json iteration_side_json(const analysis::IterationSide& s) {
    nlohmann::json roles = nlohmann::json::object();
    for (analysis::KernelRole r : analysis::kKernelRoles)
        roles[std::string(analysis::to_string(r))] = s.mean.role_ns[static_cast<std::size_t>(r)];
    return {{"count", s.steps.size()},
            {"duration_ns", to_json(s.duration)},
            {"mean_role_ns", roles},
            {"mean_idle_ns", s.mean.idle_ns}};
}

// docs/compare.md, Engine iterations: {"phases": [...]}, one object per phase.
nlohmann::json iterations_json(const analysis::IterationDiff& it) {
    nlohmann::json phases = nlohmann::json::array();
    for (const auto& d : it.phases) {
        nlohmann::json pairs = nlohmann::json::array();
        for (const auto& p : d.pairs)
            pairs.push_back({{"index", p.index}, {"a_ns", p.a_ns}, {"b_ns", p.b_ns}});
        nlohmann::json parts = nlohmann::json::object();
        for (const auto& p : d.parts)
            parts[analysis::part_key(p)] = {
                {"a_ns", p.a_ns}, {"b_ns", p.b_ns}, {"delta_ns", p.delta_ns}};
        phases.push_back({{"phase", phase_name(d.phase)},
                          {"a", iteration_side_json(d.a)},
                          {"b", iteration_side_json(d.b)},
                          {"aligned", d.pairs.size()},
                          {"pairs", pairs},
                          {"p50_delta_ns", d.p50_delta_ns},
                          {"p95_delta_ns", d.p95_delta_ns},
                          {"mean_delta_ns", d.mean_delta_ns},
                          {"u", d.test.u1},
                          {"p_value", std::isnan(d.test.p_value) ? nlohmann::json()
                                                                 : nlohmann::json(d.test.p_value)},
                          {"significant", d.significant},
                          {"parts", parts},
                          {"rest_ns", d.rest_ns},
                          {"sentence", d.sentence}});
    }
    return {{"phases", phases}};
}

}  // namespace

nlohmann::json diff_json(const LoadedRun& a, const LoadedRun& b, const analysis::RunDiff& d) {
    auto stat = [](const analysis::StatDelta& s) {
        return nlohmann::json{
            {"a", s.a},
            {"b", s.b},
            {"delta", s.delta},
            {"delta_pct", s.delta_pct ? nlohmann::json(*s.delta_pct) : nlohmann::json()}};
    };
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto& m : d.metrics)
        metrics[std::string(m.name)] = {
            {"a", to_json(m.a)},
            {"b", to_json(m.b)},
            {"mean", stat(m.mean)},
            {"p50", stat(m.p50)},
            {"p90", stat(m.p90)},
            {"p95", stat(m.p95)},
            {"p99", stat(m.p99)},
            {"u", m.test.u1},
            {"p_value",
             std::isnan(m.test.p_value) ? nlohmann::json() : nlohmann::json(m.test.p_value)},
            {"exact", m.test.exact},
            {"significant", m.significant}};
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& n : d.kernels)
        kernels.push_back({{"name", n.name},
                           {"a",
                            {{"count", n.a.count},
                             {"total_ns", n.a.total_ns},
                             {"mean_ns", n.a.mean_ns},
                             {"p95_ns", n.a.p95_ns},
                             {"p95_error", n.a.p95_error}}},
                           {"b",
                            {{"count", n.b.count},
                             {"total_ns", n.b.total_ns},
                             {"mean_ns", n.b.mean_ns},
                             {"p95_ns", n.b.p95_ns},
                             {"p95_error", n.b.p95_error}}},
                           {"count_delta", n.count_delta},
                           {"total_delta_ns", n.total_delta_ns},
                           {"mean_delta_ns", n.mean_delta_ns},
                           {"p95_delta_ns", n.p95_delta_ns}});
    nlohmann::json cats = nlohmann::json::object();
    for (const auto& c : d.categories)
        cats[std::string(to_string(c.category))] = {
            {"a_ns", c.a_ns}, {"b_ns", c.b_ns}, {"delta_ns", c.delta_ns}};
    nlohmann::json out = {
        {"a", {{"file", a.path}, {"name", a.data.info.name}, {"is_model", a.data.info.is_model()}}},
        {"b", {{"file", b.path}, {"name", b.data.info.name}, {"is_model", b.data.info.is_model()}}},
        {"metrics", metrics},
        {"attribution", cats},
        {"kernels", kernels},
        {"steps_aligned", d.steps.size()},
        {"steps_only_a", d.steps_only_a},
        {"steps_only_b", d.steps_only_b}};
    if (!d.iterations.empty()) out["iterations"] = iterations_json(d.iterations);
    if (d.heatmap) {
        nlohmann::json rows = nlohmann::json::array();
        for (std::size_t r = 0; r < d.heatmap->row_labels.size(); ++r) {
            nlohmann::json cells = nlohmann::json::array();
            for (std::size_t c = 0; c < d.heatmap->columns; ++c) {
                const auto& v = d.heatmap->at(r, c);
                cells.push_back(v ? nlohmann::json(*v) : nlohmann::json());
            }
            rows.push_back({{"label", d.heatmap->row_labels[r]}, {"delta_ns", cells}});
        }
        out["delta_heatmap"] = {{"range_ns", d.heatmap->range}, {"rows", rows}};
        // Kernel cells of a run read from its file come from duration histograms: each
        // side's P95 is within this relative bound of the exact one (0: exact).
        if (d.heatmap_a && d.heatmap_b)
            out["delta_heatmap"]["p95_error"] =
                std::max(d.heatmap_a->value_error, d.heatmap_b->value_error);
    }
    return out;
}

}  // namespace tokenscope::cli
