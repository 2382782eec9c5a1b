#include "verdict_html.h"

#include <cmath>

namespace tokenscope::ui {

QString VerdictHtml::headline(const analysis::Verdict& v, bool model_run) {
    QString text;
    if (model_run) text += tr("<i>Model run: a cost model, not a measurement.</i><br>");
    if (v.primary == "none" && !v.advice.empty()) {  // no verdict: the sentence saying why
        QString why = QString::fromStdString(v.advice);
        why[0] = why[0].toUpper();
        if (!why.endsWith(QLatin1Char('.'))) why += QLatin1Char('.');
        return text + tr("<b>No verdict.</b> %1").arg(why.toHtmlEscaped());
    }
    text += QStringLiteral("<b>%1</b>").arg(QString::fromStdString(v.primary).toHtmlEscaped());
    if (!v.bound_by.empty())
        text += QStringLiteral(" (%1)").arg(QString::fromStdString(v.bound_by).toHtmlEscaped());
    if (v.limited_by == "latency") text += tr(", latency-limited");
    // Absent, not small, when no kernel carries bytes (analysis::Verdict says why).
    if (v.achieved_bandwidth_fraction)
        text += tr("<br>achieved bandwidth %1 of peak")
                    .arg(plots::TimeFormat::share(*v.achieved_bandwidth_fraction));
    if (!v.advice.empty())
        text += QStringLiteral("<br>%1").arg(QString::fromStdString(v.advice).toHtmlEscaped());
    return text;
}

QString VerdictHtml::ruleTable(const analysis::Verdict& v, plots::TimeUnit unit) {
    QString text = QStringLiteral("<table>");
    for (const auto& r : v.rules) {
        const bool ns = r.name.ends_with("_ns");
        auto fmt = [&](double x) {
            return ns ? plots::TimeFormat::duration(static_cast<std::int64_t>(x), unit)
                      : plots::TimeFormat::share(x);
        };
        text += QStringLiteral("<tr><td>%1%2</td><td align=right>%3</td><td>&gt; %4</td></tr>")
                    .arg(r.fired ? QStringLiteral("▶ ") : QString(), QString::fromStdString(r.name),
                         r.available ? fmt(r.value) : tr("n/a"), fmt(r.threshold));
    }
    return text + QStringLiteral("</table>");
}

QString VerdictHtml::summary(const analysis::RunAssessment& a, plots::TimeUnit unit) {
    QString text = tr("<br>%1 steps, %2 in total")
                       .arg(a.summary.steps)
                       .arg(plots::TimeFormat::duration(a.summary.total_ns, unit));
    if (a.floor.distance_ns.count > 0)
        text += tr("<br>distance to the ITL floor: P50 %1, P95 %2 (P50 %3x the floor)")
                    .arg(plots::TimeFormat::duration(std::llround(a.floor.distance_ns.p50), unit),
                         plots::TimeFormat::duration(std::llround(a.floor.distance_ns.p95), unit))
                    .arg(a.floor.ratio.p50, 0, 'f', 2);
    return text;
}

}  // namespace tokenscope::ui
