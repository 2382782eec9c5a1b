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

QString VerdictHtml::ruleName(const std::string& rule) {
    if (rule == "transfer_share") return tr("Transfer share (NVLink + PCIe)");
    if (rule == "scheduling_p95_ns") return tr("P95 scheduling per step");
    if (rule == "launch_delay_p95_ns") return tr("P95 launch delay");
    if (rule == "nvlink_fraction") return tr("NVLink throughput of peak");
    if (rule == "gpu_share") return tr("GPU share (compute + memory)");
    if (rule == "cpu_share") return tr("CPU share");
    QString words = QString::fromStdString(rule);
    if (words.endsWith(QStringLiteral("_ns"))) words.chop(3);
    words.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!words.isEmpty()) words[0] = words[0].toUpper();
    return words;
}

QString VerdictHtml::ruleMeaning(const std::string& rule) {
    QString what;
    if (rule == "transfer_share")
        what = tr("NVLink and PCIe time over the total step time");
    else if (rule == "scheduling_p95_ns")
        what = tr("the 95th percentile over steps of each step's scheduling time");
    else if (rule == "launch_delay_p95_ns")
        what = tr("the 95th percentile of the delay from a launch call to its kernel's start");
    else if (rule == "nvlink_fraction")
        what = tr("peer-to-peer throughput over the NVLink peak");
    else if (rule == "gpu_share")
        what = tr("GPU compute and GPU memory time over the total");
    else if (rule == "cpu_share")
        what = tr("CPU time over the total (a run without GPU work)");
    const QString key = tr("%1 in the JSON").arg(QString::fromStdString(rule));
    return what.isEmpty() ? key : tr("%1; %2").arg(what, key);
}

QString VerdictHtml::ruleNumber(const analysis::RuleResult& r, double x, plots::TimeUnit unit) {
    return r.name.ends_with("_ns") ? plots::TimeFormat::duration(std::llround(x), unit)
                                   : plots::TimeFormat::share(x);
}

QString VerdictHtml::ruleValue(const analysis::RuleResult& r, plots::TimeUnit unit) {
    QString text = ruleNumber(r, r.value, unit);
    if (r.relative_error > 0)
        text += QStringLiteral(" \u00b1%1%").arg(r.relative_error * 100.0, 0, 'f', 1);
    return text;
}

// Narrow enough for the dock: the names wrap in their column, and the value and the
// threshold each keep a column of their own, so no threshold is pushed out of sight.
QString VerdictHtml::ruleTable(const analysis::Verdict& v, plots::TimeUnit unit) {
    QString text =
        tr("<table cellspacing=0 cellpadding=2 width='100%'><tr><th align=left>"
           "Rule</th><th align=right>Value</th><th align=right style='padding-left:8px'>Fires "
           "above</th></tr>");
    for (const auto& r : v.rules) {
        const QString name = ruleName(r.name).toHtmlEscaped();
        text += QStringLiteral(
                    "<tr><td>%1</td><td align=right style='white-space:nowrap'>%2</td>"
                    "<td align=right style='white-space:nowrap; padding-left:8px'>%3</td></tr>")
                    .arg(r.fired ? QStringLiteral("\u25b6 <b>%1</b>").arg(name) : name,
                         r.available ? ruleValue(r, unit) : tr("n/a"),
                         ruleNumber(r, r.threshold, unit));
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
