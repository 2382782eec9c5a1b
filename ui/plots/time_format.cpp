#include "time_format.h"

#include <cmath>

namespace tokenscope::ui::plots {

double TimeFormat::ns_per_unit(TimeUnit unit) {
    return unit == TimeUnit::Milliseconds ? 1e6 : 1e3;
}

QString TimeFormat::suffix(TimeUnit unit) {
    return unit == TimeUnit::Milliseconds ? QStringLiteral("ms") : QStringLiteral("us");
}

QString TimeFormat::duration(std::int64_t ns, TimeUnit unit) {
    const double v = static_cast<double>(ns) / ns_per_unit(unit);
    return QString::number(v, 'f', 3) + QLatin1Char(' ') + suffix(unit);
}

QString TimeFormat::tick(std::int64_t ns, std::int64_t step_ns, TimeUnit unit) {
    const double per = ns_per_unit(unit);
    // Enough decimals that neighbouring ticks never print the same text.
    int decimals = 0;
    if (step_ns > 0) {
        const double step = static_cast<double>(step_ns) / per;
        decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step))));
    }
    return QString::number(static_cast<double>(ns) / per, 'f', std::min(decimals, 6)) +
           QLatin1Char(' ') + suffix(unit);
}

QString TimeFormat::bytes(std::uint64_t bytes) {
    static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    return u == 0 ? QString::number(bytes) + QStringLiteral(" B")
                  : QString::number(v, 'f', 2) + QLatin1Char(' ') + QLatin1String(kUnits[u]);
}

QString TimeFormat::counter(double value, const QString& lane_name) {
    if (!lane_name.contains(QStringLiteral("bytes/s"))) return QString::number(value, 'g', 3);
    static const char* const kUnits[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
    double v = value;
    int u = 0;
    while (std::abs(v) >= 1000.0 && u < 4) {
        v /= 1000.0;
        ++u;
    }
    return QString::number(v, 'f',
                           std::abs(v) < 10.0 && u > 0 ? 2
                           : std::abs(v) < 100.0       ? 1
                                                       : 0) +
           QLatin1Char(' ') + QLatin1String(kUnits[u]);
}

QString TimeFormat::share(double fraction) {
    return QString::number(fraction * 100.0, 'f', 1) + QStringLiteral(" %");
}

QString TimeFormat::to_settings(TimeUnit unit) {
    return suffix(unit);
}

TimeUnit TimeFormat::from_settings(const QString& text) {
    return text == QLatin1String("us") ? TimeUnit::Microseconds : TimeUnit::Milliseconds;
}

}  // namespace tokenscope::ui::plots
