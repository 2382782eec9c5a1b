#include "fleet_query.h"

#include <QSettings>
#include <stdexcept>
#include <string>

namespace tokenscope::ui {
namespace {

constexpr auto kGroup = "fleet";

std::int64_t duration(const QString& text, const char* field) {
    try {
        return fleet::parse_duration(text.trimmed().toStdString());
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string(field) + ": " + e.what());
    }
}

}  // namespace

FleetQuery FleetQuery::load(QSettings& s) {
    FleetQuery q;
    s.beginGroup(QLatin1String(kGroup));
    q.source = s.value(QStringLiteral("source")).toString() == QLatin1String("file")
                   ? Source::File
                   : Source::Server;
    q.url = s.value(QStringLiteral("url"), q.url).toString();
    q.file = s.value(QStringLiteral("file")).toString();
    const QString auth = s.value(QStringLiteral("auth")).toString();
    q.auth = auth == QLatin1String("bearer")  ? Auth::Bearer
             : auth == QLatin1String("basic") ? Auth::Basic
                                              : Auth::None;
    q.user = s.value(QStringLiteral("user")).toString();
    q.ca_file = s.value(QStringLiteral("ca_file")).toString();
    q.metric = s.value(QStringLiteral("metric"), q.metric).toString();
    q.by = s.value(QStringLiteral("by"), q.by).toString();
    q.range = s.value(QStringLiteral("range"), q.range).toString();
    q.window = s.value(QStringLiteral("window"), q.window).toString();
    q.quantile = s.value(QStringLiteral("quantile"), q.quantile).toDouble();
    const QString compare = s.value(QStringLiteral("compare")).toString();
    q.compare = compare == QLatin1String("range")  ? Compare::PreviousRange
                : compare == QLatin1String("week") ? Compare::PreviousWeek
                                                   : Compare::None;
    s.endGroup();
    return q;
}

void FleetQuery::save(QSettings& s) const {
    s.beginGroup(QLatin1String(kGroup));
    s.setValue(QStringLiteral("source"),
               source == Source::File ? QStringLiteral("file") : QStringLiteral("server"));
    s.setValue(QStringLiteral("url"), url);
    s.setValue(QStringLiteral("file"), file);
    s.setValue(QStringLiteral("auth"), auth == Auth::Bearer  ? QStringLiteral("bearer")
                                       : auth == Auth::Basic ? QStringLiteral("basic")
                                                             : QStringLiteral("none"));
    s.setValue(QStringLiteral("user"), user);
    s.setValue(QStringLiteral("ca_file"), ca_file);
    s.setValue(QStringLiteral("metric"), metric);
    s.setValue(QStringLiteral("by"), by);
    s.setValue(QStringLiteral("range"), range);
    s.setValue(QStringLiteral("window"), window);
    s.setValue(QStringLiteral("quantile"), quantile);
    s.setValue(QStringLiteral("compare"),
               compare == Compare::PreviousRange  ? QStringLiteral("range")
               : compare == Compare::PreviousWeek ? QStringLiteral("week")
                                                  : QStringLiteral("none"));
    s.endGroup();
}

fleet::FleetSpec FleetQuery::spec(std::int64_t end_s) const {
    fleet::FleetSpec spec;
    try {
        // A preset tries vLLM's name, then SGLang's and TGI's where it finds no data.
        fleet::set_metric(spec, metric.trimmed().toStdString(), std::nullopt);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("metric: ") + e.what());
    }
    spec.by = by.trimmed().toStdString();
    if (!fleet::valid_label_name(spec.by) || spec.by == "le")
        throw std::invalid_argument("group by: '" + spec.by +
                                    "' is not a label name one can group by");
    spec.range_s = duration(range, "range");
    spec.window_s = duration(window, "window");
    if (!(quantile >= 0.5 && quantile <= 0.999))
        throw std::invalid_argument("quantile: must be between 0.5 and 0.999");
    spec.quantile = quantile;
    spec.end_s = end_s;
    fleet::window_ends(spec);  // throws for a range that is no whole number of windows
    return spec;
}

fleet::PrometheusConfig FleetQuery::config() const {
    fleet::PrometheusConfig c;
    c.url = url.trimmed().toStdString();
    if (auth == Auth::Bearer) c.bearer_token = secret.toStdString();
    if (auth == Auth::Basic) {
        c.user = user.toStdString();
        c.password = secret.toStdString();
    }
    c.ca_file = ca_file.trimmed().toStdString();
    c.timeout_s = timeout_s;
    return c;
}

std::int64_t FleetQuery::compareOffset_s() const {
    switch (compare) {
        case Compare::None:
            return 0;
        case Compare::PreviousRange:
            return duration(range, "range");
        case Compare::PreviousWeek:
            return 7 * 24 * 3600;
    }
    return 0;
}

QString FleetQuery::sourceName() const {
    if (source == Source::File) return file;
    return url.trimmed();
}

QString FleetQuery::secretKey() const {
    switch (auth) {
        case Auth::None:
            return {};
        case Auth::Bearer:
            return QStringLiteral("bearer %1").arg(url.trimmed());
        case Auth::Basic:
            return QStringLiteral("basic %1@%2").arg(user, url.trimmed());
    }
    return {};
}

}  // namespace tokenscope::ui
