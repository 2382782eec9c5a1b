#include "tool_figures_report.h"

#include <cmath>
#include <set>

#include "format.h"
#include "text_table.h"

namespace tokenscope::cli {
namespace {

std::string ms2(double ns) {
    return format_ms(ns, 2) + " ms";
}

std::string signed_percent(const std::optional<double>& d) {
    if (!d) return "";
    if (!std::isfinite(*d)) return "inf";
    if (std::fabs(*d) < 0.0005) return "0.0%";
    return (*d > 0 ? "+" : "") + format_percent(*d, 1);
}

std::string check_text(const analysis::FigureCheck& c) {
    using V = analysis::FigureVerdict;
    switch (c.verdict) {
        case V::Agrees:
            return "agrees";
        case V::DefinitionsDiffer:
            return "definitions differ (explained)";
        case V::Differs:
            return "FLAGGED: differs";
        case V::Unexplained:
            return "FLAGGED: not explained";
        case V::Unchecked:
            return "FLAGGED: cannot check";
        case V::NoFigure:
            break;
    }
    return "no Tokenscope figure";
}

std::string id_list(const std::vector<std::int64_t>& ids) {
    std::string s;
    for (std::size_t i = 0; i < ids.size() && i < 10; ++i)
        s += (i ? ", " : "") + std::to_string(ids[i]);
    if (ids.size() > 10) s += ", ...";
    return s;
}

void print_window(std::ostream& out, const trace::RunData& run, const analysis::ToolWindow& w) {
    const std::size_t left = w.warmup.size() + w.cooldown.size();
    out << "  " << w.tool << " measurement window: " << run.requests.size() - left << " of "
        << run.requests.size() << " requests inside; left out as " << w.tool
        << " leaves them out: " << w.warmup.size() << " in warm-up"
        << (w.warmup.empty() ? "" : " (requests " + id_list(w.warmup) + ")") << ", "
        << w.cooldown.size() << " in cool-down"
        << (w.cooldown.empty() ? "" : " (requests " + id_list(w.cooldown) + ")") << '\n';
    if (!w.rule.empty()) out << "    " << w.rule << '\n';
}

// One sentence per mean: the tool's figure and ours, each with its definition.
void print_sentences(std::ostream& out, const std::vector<analysis::FigureCheck>& checks) {
    std::set<std::string> files;
    for (const auto& c : checks) files.insert(c.tool.tool + "'s own figures (" + c.tool.file + ")");
    for (const auto& f : files) out << "  " << f << " beside Tokenscope's:\n";
    for (const auto& c : checks) {
        if (c.tool.stat != "mean") continue;
        out << "    " << c.tool.label << ": " << ms2(c.tool.value_ns) << "; " << c.our_label << ": "
            << (c.ours_ns ? ms2(*c.ours_ns) : "none") << '\n';
        if (!c.tool.same_definition && !c.tool.definition.empty())
            out << "      " << c.tool.tool << "'s definition: " << c.tool.definition << '\n';
        if (c.verdict != analysis::FigureVerdict::Agrees || !c.tool.same_definition)
            out << "      " << c.explanation << '\n';
    }
}

// Text: the figures in a table the terminal holds; CSV: with the tool and its field.
void print_table(std::ostream& out, const std::vector<analysis::FigureCheck>& checks, bool csv) {
    std::vector<std::string> header = {"figure", "tool (ms)", "Tokenscope (ms)", "difference",
                                       "check"};
    if (csv) header.insert(header.begin(), {"tool", "field"});
    TextTable t(header);
    for (const auto& c : checks) {
        std::vector<std::string> row = {
            c.tool.metric + " " + c.tool.stat, format_ms(c.tool.value_ns),
            c.ours_ns ? format_ms(*c.ours_ns) : "", signed_percent(c.difference), check_text(c)};
        if (csv) row.insert(row.begin(), {c.tool.tool, c.tool.field});
        t.add_row(row);
    }
    t.print(out, csv);
}

}  // namespace

void print_tool_figures(std::ostream& out, const trace::RunData& run, const analysis::RunMetrics& m,
                        bool csv) {
    auto figures = analysis::read_client_figures(run.info);
    if (!csv && figures.window) print_window(out, run, *figures.window);
    if (figures.figures.empty()) {
        if (!csv && figures.window) out << '\n';
        return;
    }
    auto checks = analysis::check_tool_figures(figures.figures, m);
    if (csv) {
        print_table(out, checks, true);
        return;
    }
    print_sentences(out, checks);
    print_table(out, checks, false);
    for (const auto& c : checks)
        if (c.flagged)
            out << "  FLAGGED " << c.tool.field << " (" << c.tool.metric << " " << c.tool.stat
                << "): " << c.explanation << '\n';
    out << '\n';
}

void add_tool_figures_json(nlohmann::json& out, const trace::RunData& run,
                           const analysis::RunMetrics& m) {
    auto figures = analysis::read_client_figures(run.info);
    if (figures.window) {
        const auto& w = *figures.window;
        out["measurement_window"] = {
            {"tool", w.tool},
            {"rule", w.rule},
            {"start_ns", w.start_ns ? nlohmann::json(*w.start_ns) : nullptr},
            {"end_ns", w.end_ns ? nlohmann::json(*w.end_ns) : nullptr},
            {"warmup_requests", w.warmup},
            {"cooldown_requests", w.cooldown}};
    }
    if (figures.figures.empty()) return;
    nlohmann::json list = nlohmann::json::array();
    for (const auto& c : analysis::check_tool_figures(figures.figures, m)) {
        const auto& t = c.tool;
        auto opt = [](const std::optional<double>& v) {
            return v && std::isfinite(*v) ? nlohmann::json(*v) : nlohmann::json(nullptr);
        };
        list.push_back({{"tool", t.tool},
                        {"file", t.file},
                        {"field", t.field},
                        {"label", t.label},
                        {"definition", t.definition},
                        {"metric", t.metric},
                        {"stat", t.stat},
                        {"same_definition", t.same_definition},
                        {"tool_ns", t.value_ns},
                        {"ours_ns", opt(c.ours_ns)},
                        {"our_label", c.our_label},
                        {"difference", opt(c.difference)},
                        {"recomputed_ns", opt(t.recomputed_ns)},
                        {"recomputed_from", t.recomputed_from},
                        {"verdict", analysis::verdict_name(c.verdict)},
                        {"flagged", c.flagged},
                        {"explanation", c.explanation}});
    }
    out["tool_figures"] = list;
}

}  // namespace tokenscope::cli
