#include "diff_report.h"

#include <cmath>

#include "analysis/kernel_name.h"
#include "category_label.h"
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

void print_names(std::ostream& out, const std::vector<analysis::NameDiff>& names, std::size_t top,
                 bool csv) {
    TextTable t({"kernel", "A count", "B count", "A total ms", "B total ms", "total delta ms",
                 "mean delta us", "p95 delta us"});
    for (std::size_t i = 0; i < names.size() && (csv || i < top); ++i) {
        const auto& n = names[i];
        // The text table shows the short name; CSV (and JSON) keep the full one.
        const std::string name = csv ? n.name : analysis::short_kernel_name(n.name);
        t.add_row({name + (n.in_a ? "" : " [B only]") + (n.in_b ? "" : " [A only]"),
                   std::to_string(n.a.count), std::to_string(n.b.count),
                   format_ms(double(n.a.total_ns)), format_ms(double(n.b.total_ns)),
                   format_ms(double(n.total_delta_ns)), format_double(n.mean_delta_ns / 1e3, 2),
                   format_double(n.p95_delta_ns / 1e3, 2)});
    }
    t.print(out, csv);
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
    }
    print_metrics(out, d, csv);
    out << '\n';
    print_categories(out, d, csv);
    out << '\n';
    print_names(out, d.kernels, top, csv);
    if (!csv && d.kernels.size() > top)
        out << "(" << d.kernels.size() - top << " more kernels; --top N or --csv for all)\n";
    out << '\n';
}

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
                             {"p95_ns", n.a.p95_ns}}},
                           {"b",
                            {{"count", n.b.count},
                             {"total_ns", n.b.total_ns},
                             {"mean_ns", n.b.mean_ns},
                             {"p95_ns", n.b.p95_ns}}},
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
    }
    return out;
}

}  // namespace tokenscope::cli
