#include "bin_tooltip.h"

#include <algorithm>

#include "ui/plots/tooltip_text.h"

namespace tokenscope::ui {
namespace {

QString name_of(const trace::RunData& run, std::uint32_t id) {
    if (id == 0 || id >= run.strings.size()) return QStringLiteral("?");
    const std::string_view s = run.strings.str(id);
    return plots::breakable_html(QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())));
}

}  // namespace

QString BinTooltip::html(const trace::RunData& run, const store::SummaryBin& bin, int bin_log2,
                         std::int64_t origin_ns, plots::TimeUnit unit) {
    const std::int64_t width = std::int64_t{1} << bin_log2;
    const std::int64_t start = bin.bin * width;
    const double busy =
        std::clamp(static_cast<double>(bin.busy_ns) / static_cast<double>(width), 0.0, 1.0);
    QString text =
        QStringLiteral("<b>%1 %2</b> start in %3 … %4<br>busy %5 of it (%6)")
            .arg(QLocale().toString(static_cast<qlonglong>(bin.count)),
                 bin.count == 1 ? QStringLiteral("activity") : QStringLiteral("activities"),
                 plots::TimeFormat::duration(start - origin_ns, unit),
                 plots::TimeFormat::duration(start + width - origin_ns, unit),
                 plots::TimeFormat::duration(bin.busy_ns, unit), plots::TimeFormat::share(busy));
    if (bin.dominant_ns > 0)
        text += QStringLiteral("<br>most time: %1 (%2)")
                    .arg(name_of(run, bin.dominant_name),
                         plots::TimeFormat::duration(bin.dominant_ns, unit));
    if (bin.longest_ns > 0)
        text += QStringLiteral("<br>longest: %1 (%2)")
                    .arg(name_of(run, bin.longest_name),
                         plots::TimeFormat::duration(bin.longest_ns, unit));
    return text + QStringLiteral("<br><i>from the file's summary: zoom in to see each one</i>");
}

}  // namespace tokenscope::ui
