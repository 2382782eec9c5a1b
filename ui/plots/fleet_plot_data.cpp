#include "fleet_plot_data.h"

#include <QDateTime>
#include <QLocale>
#include <cmath>

#include "fleet/calibration.h"
#include "time_format.h"

namespace tokenscope::ui::plots {

HeatmapPlotData FleetPlotData::plotData(const fleet::FleetMatrix& m, const QString& source) {
    HeatmapPlotData d = HeatmapPlotData::fromHeatmap(m.map);
    d.metric = QString::fromStdString(m.spec.metric);
    d.value_name = quantileName(m.spec.quantile);
    // Clock times: a fleet's windows are hours of a day, not times from a run's start.
    const bool days = m.spec.range_s > 24 * 3600;
    const bool since_start = m.snapshot && m.snapshot->since_start;
    for (std::size_t c = 0; c < m.window_end_s.size(); ++c)
        d.column_labels << (since_start
                                ? QObject::tr("since the server started")
                                : QDateTime::fromSecsSinceEpoch(m.window_start_s(c), Qt::UTC)
                                      .toString(days ? QStringLiteral("MM-dd HH:mm")
                                                     : QStringLiteral("HH:mm")));
    d.column_axis =
        since_start
            ? QObject::tr("up to the scrape at %1 UTC")
                  .arg(QString::fromStdString(fleet::format_rfc3339(m.window_end_s.front())))
            : QObject::tr("window start (UTC)");
    d.title = QStringLiteral("%1 %2 by %3 — %4")
                  .arg(quantileName(m.spec.quantile), d.metric, QString::fromStdString(m.spec.by),
                       source);
    if (since_start)
        d.title += QObject::tr(" (since the server started)");
    else if (!m.window_end_s.empty())
        d.title += QStringLiteral(" (from %1)")
                       .arg(QString::fromStdString(fleet::format_rfc3339(m.window_start_s(0))));
    return d;
}

QString FleetPlotData::quantileName(double q) {
    // Up to one decimal of the percentile: 0.999 -> P99.9, 0.95 -> P95.
    return QStringLiteral("P") + QLocale::c().toString(std::round(q * 1000.0) / 10.0, 'g', 4);
}

double FleetPlotData::sampleRate(const fleet::FleetMatrix& m, std::size_t row, std::size_t column) {
    const std::int64_t width = m.window_width_s(column);  // 0: a server start not scraped
    return width > 0 ? m.observations_at(row, column) / static_cast<double>(width) : 0.0;
}

QString FleetPlotData::windowText(const fleet::FleetMatrix& m, std::size_t column) {
    const auto end = QDateTime::fromSecsSinceEpoch(m.window_end_s[column], Qt::UTC);
    const auto start = QDateTime::fromSecsSinceEpoch(m.window_start_s(column), Qt::UTC);
    const bool days = m.spec.range_s > 24 * 3600 || m.window_width_s(column) > 24 * 3600;
    const QString fmt = days ? QStringLiteral("MM-dd HH:mm") : QStringLiteral("HH:mm");
    if (m.snapshot && m.snapshot->since_start)
        return m.snapshot->start_s
                   ? QObject::tr("since the server started (%1 UTC), up to the scrape at %2 UTC")
                         .arg(start.toString(fmt), end.toString(fmt))
                   : QObject::tr("since the server started, up to the scrape at %1 UTC")
                         .arg(end.toString(fmt));
    return QStringLiteral("%1 \u2013 %2 UTC").arg(start.toString(fmt), end.toString(fmt));
}

QString FleetPlotData::durationText(std::optional<double> ns) {
    if (!ns) return QStringLiteral("\u2014");
    return TimeFormat::duration(static_cast<std::int64_t>(std::llround(*ns)),
                                TimeUnit::Milliseconds);
}

QString FleetPlotData::cellToolTip(const fleet::FleetMatrix& m, std::size_t row,
                                   std::size_t column) {
    const auto& label = m.map.row_labels[row];
    QString text =
        QStringLiteral("<b>%1</b><br>%2<br>")
            .arg(QString::fromStdString(label.empty() ? "(no label)" : label).toHtmlEscaped(),
                 windowText(m, column));
    const auto& cell = m.map.cells[row * m.window_end_s.size() + column];
    if (!cell.value) return text + QObject::tr("blank: no samples in this window");
    text += QObject::tr("%1 %2<br>%3 observations")
                .arg(quantileName(m.spec.quantile), durationText(cell.value),
                     QLocale::c().toString(m.observations_at(row, column), 'f', 0));
    if (m.window_width_s(column) > 0)
        text +=
            QStringLiteral(", %1/s").arg(QLocale::c().toString(sampleRate(m, row, column), 'g', 3));
    const auto& sla = m.map.row_sla[row];
    if (sla) {
        const bool above = *cell.value > *sla;  // as HeatmapPlotData::breaches outlines it
        text += QObject::tr("<br>row SLA %1%2")
                    .arg(durationText(sla),
                         above ? QObject::tr(" \u2014 <b>above SLA</b>") : QString());
    }
    const auto& flag = m.map.row_flag[row];
    if (flag && *flag == column) text += QObject::tr("<br>recalibration flag starts here");
    const auto& cal = m.calibration[row];
    if (cal.started_at && *cal.started_at == column)
        text += QObject::tr("<br>calibration starts here");
    if (cal.settled_at && *cal.settled_at == column)
        text += QObject::tr("<br>calibration settles here at %1").arg(durationText(cal.threshold));
    return text;
}

}  // namespace tokenscope::ui::plots
