#include "sweep_report.h"

#include <cmath>
#include <set>

#include "analysis/sweep/strategy_comparison.h"
#include "format.h"
#include "text_table.h"

namespace tokenscope::cli {
namespace {

std::string show(const std::string& figure, double v) {
    if (std::isnan(v)) return "-";
    if (figure == "attainment") return format_percent(v);
    return is_time_figure(figure) ? format_ms(v, 2) : format_double(v, 2);
}

std::string param(const analysis::SweepPointSummary& p, const std::string& name) {
    auto it = p.params.find(name);
    return it == p.params.end() ? "" : it->second;
}

const std::vector<std::string> kColumns = {"attainment", "goodput",         "ttft_p50",
                                           "ttft_p90",   "ttft_p99",        "tpot_p50",
                                           "tpot_p99",   "throughput_tok_s"};

std::string sla_text(const analysis::SlaBounds& sla) {
    std::string t;
    if (sla.ttft_ns) t += "TTFT <= " + format_ms(static_cast<double>(*sla.ttft_ns), 1) + " ms";
    if (sla.tpot_ns)
        t += (t.empty() ? "" : ", ") + std::string("TPOT <= ") +
             format_ms(static_cast<double>(*sla.tpot_ns), 1) + " ms";
    return t.empty() ? "none (every finished request meets it)" : t;
}

TextTable point_table(const SweepReport& r, bool with_spread) {
    std::vector<std::string> header = {"point"};
    for (const auto& a : r.input.axes) header.push_back(a);
    header.push_back("runs");
    for (const auto& c : kColumns) {
        header.push_back(c == "throughput_tok_s" ? "tok/s" : is_time_figure(c) ? c + " ms" : c);
        if (with_spread) header.push_back(c + " std");
    }
    TextTable t(header);
    for (const auto& p : r.points) {
        std::vector<std::string> row = {std::to_string(p.point)};
        for (const auto& a : r.input.axes) row.push_back(param(p, a));
        row.push_back(std::to_string(p.run_ids.size()));
        for (const auto& c : kColumns) {
            row.push_back(show(c, p.median.count(c) ? p.median.at(c) : NAN));
            if (with_spread) row.push_back(show(c, p.spread.count(c) ? p.spread.at(c) : NAN));
        }
        t.add_row(row);
    }
    return t;
}

void print_curve(std::ostream& out, const SweepReport& r) {
    const auto& c = r.curve;
    out << "\n" << c.y_name << " against " << c.x_name << " (" << c.x.size() << " points)\n";
    std::string frontier;
    for (std::size_t i : c.frontier)
        frontier += (frontier.empty() ? "" : ", ") + std::to_string(c.points[i]);
    out << "  Pareto frontier (points): " << (frontier.empty() ? "-" : frontier) << '\n';
    if (c.fit.ok)
        out << "  fit: y = a * x^b + c with a = " << c.fit.a << ", b = " << c.fit.b
            << ", c = " << c.fit.c << " (y in " << (is_time_figure(c.y_name) ? "ns" : "units")
            << "), R^2 = " << format_double(c.fit.r2, 4) << '\n';
    else
        out << "  fit: none (needs 4 points with x > 0 and y not constant)\n";
    if (c.knee)
        out << "  knee: point " << c.points[*c.knee] << " at " << c.x_name << " = " << c.x[*c.knee]
            << ", " << c.y_name << " = " << show(c.y_name, c.y[*c.knee])
            << (is_time_figure(c.y_name) ? " ms" : "") << '\n';
    else
        out << "  knee: none (the curve does not bend below its chord)\n";
}

void print_strategies(std::ostream& out, const SweepReport& r) {
    const auto rows = analysis::strategy_comparison(r.points, r.input.axes);
    if (rows.empty()) return;
    bool context = false;
    for (const auto& s : rows) context = context || !s.context.empty();
    out << "\ndecoding strategies (ms; TTFT and TPOT over all counted runs' requests)\n";
    std::vector<std::string> header = {"point", "strategy"};
    if (context) header.push_back("other axes");
    for (const char* h :
         {"requests", "ttft p50", "ttft p90", "ttft std", "tpot p50", "tpot p90", "tpot std"})
        header.push_back(h);
    TextTable t(header);
    for (const auto& s : rows) {
        std::vector<std::string> row = {std::to_string(s.point), s.strategy};
        if (context) row.push_back(s.context);
        for (const std::string& cell :
             {format_double(s.requests, 0), show("ttft", s.ttft_p50), show("ttft", s.ttft_p90),
              show("ttft", s.ttft_std), show("tpot", s.tpot_p50), show("tpot", s.tpot_p90),
              show("tpot", s.tpot_std)})
            row.push_back(cell);
        t.add_row(row);
    }
    t.print(out, false);
}

void print_tenants(std::ostream& out, const SweepReport& r) {
    bool any = false;
    for (const auto& p : r.points) any = any || !p.tenants.empty();
    if (!any) return;
    out << "\nper-tenant SLA attainment (each class on its own SLA)\n";
    TextTable t({"point", "class", "attainment", "std"});
    for (const auto& p : r.points)
        for (const auto& c : p.tenants)
            t.add_row({std::to_string(p.point), c.name, show("attainment", c.median),
                       show("attainment", c.spread)});
    t.print(out, false);
}

// The SLA-attainment grid: batch down, prompt across, one grid per value of the
// other axes (model, GPU, ...).
void print_grid(std::ostream& out, const SweepReport& r) {
    const auto& axes = r.input.axes;
    auto has = [&](const char* a) { return std::find(axes.begin(), axes.end(), a) != axes.end(); };
    if (!has("batch") || !has("prompt")) return;
    std::vector<std::string> groups, rows, cols;
    auto add = [](std::vector<std::string>& v, const std::string& x) {
        if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
    };
    auto group_of = [&](const analysis::SweepPointSummary& p) {
        std::string g;
        for (const auto& a : axes)
            if (a != "batch" && a != "prompt") g += (g.empty() ? "" : " ") + a + "=" + param(p, a);
        return g;
    };
    for (const auto& p : r.points) {
        add(groups, group_of(p));
        add(rows, param(p, "batch"));
        add(cols, param(p, "prompt"));
    }
    for (const auto& g : groups) {
        out << "\nSLA attainment, batch x prompt" << (g.empty() ? "" : " (" + g + ")") << '\n';
        std::vector<std::string> header = {"batch/prompt"};
        header.insert(header.end(), cols.begin(), cols.end());
        TextTable t(header);
        for (const auto& b : rows) {
            std::vector<std::string> row = {b};
            for (const auto& c : cols) {
                std::string cell = "-";
                for (const auto& p : r.points)
                    if (group_of(p) == g && param(p, "batch") == b && param(p, "prompt") == c)
                        cell = show("attainment", p.median.at("attainment"));
                row.push_back(cell);
            }
            t.add_row(row);
        }
        t.print(out, false);
    }
}

}  // namespace

std::string default_x(const SweepReport& r) {
    for (const char* load : {"qps", "arrival", "concurrency", "request_rate", "max_concurrency"})
        if (std::find(r.input.axes.begin(), r.input.axes.end(), load) != r.input.axes.end())
            return load;
    for (const auto& a : r.input.axes) {
        bool numeric = !r.points.empty();
        for (const auto& p : r.points)
            numeric = numeric && !std::isnan(analysis::point_value(p, a));
        if (numeric) return a;
    }
    return "throughput_tok_s";
}

void print_sweep_text(std::ostream& out, const SweepReport& r) {
    out << "sweep: " << r.input.name << "  (" << r.input.source << ")\n";
    if (r.input.model)
        out << "  MODEL: figures come from the cost model / serving model, not from a "
               "measurement\n";
    out << "  SLA: " << sla_text(r.sla) << "; a point's figure is the median over its runs\n\n";
    point_table(r, false).print(out, false);
    print_grid(out, r);
    print_curve(out, r);
    print_strategies(out, r);
    print_tenants(out, r);
}

void print_sweep_csv(std::ostream& out, const SweepReport& r) {
    point_table(r, true).print(out, true);
}

bool is_time_figure(const std::string& figure) {
    return figure.starts_with("ttft") || figure.starts_with("tpot") || figure.starts_with("e2e");
}

}  // namespace tokenscope::cli
