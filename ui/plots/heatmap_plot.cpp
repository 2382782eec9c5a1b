#include "heatmap_plot.h"

#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/kernel_name.h"
#include "heatmap_marks.h"
#include "plot_style.h"
#include "tooltip_text.h"

namespace tokenscope::ui::plots {
namespace {

constexpr int kMaxColumnLabels = 12;
constexpr int kColumnLabelPixels = 90;  // room for one "123.456 ms" label
constexpr int kMaxLabelChars = 48;
constexpr int kScaleRoom = 80;  // the colour scale, its ticks and its title
QString flag_mark() {
    return QStringLiteral(" \u2691");
}  // ⚑ (a function: no global QString)

// Viridis: perceptually uniform and readable with colour-blindness; its dark
// low end never looks like the hatched blank cells.
QCPColorGradient sequential_gradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
    g.setColorStopAt(0.25, QColor(0x3b, 0x52, 0x8b));
    g.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8c));
    g.setColorStopAt(0.75, QColor(0x5e, 0xc9, 0x62));
    g.setColorStopAt(1.0, QColor(0xfd, 0xe7, 0x25));
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

// Blue (B faster) through light grey (no change) to red (B slower).
QCPColorGradient diverging_gradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0x21, 0x66, 0xac));
    g.setColorStopAt(0.25, QColor(0x92, 0xc5, 0xde));
    g.setColorStopAt(0.5, QColor(0xe8, 0xe8, 0xe8));
    g.setColorStopAt(0.75, QColor(0xf4, 0xa5, 0x82));
    g.setColorStopAt(1.0, QColor(0xb2, 0x18, 0x2b));
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

// A single cell needs a non-degenerate range, or QCPColorMap draws it zero wide.
QCPRange index_range(std::size_t n) {
    return n > 1 ? QCPRange(0, static_cast<double>(n - 1)) : QCPRange(-0.5, 0.5);
}

// Row labels at most kMaxLabelChars long, still told apart: a label that would read like
// another one cut at the end (four GEMMs sharing their first 48 characters) keeps its
// start and the part where it differs from the others, the rest elided.
QStringList elide_distinct(const QStringList& labels) {
    const QChar dots(0x2026);
    QStringList out;
    for (const QString& l : labels)
        out << (l.size() <= kMaxLabelChars ? l : l.left(kMaxLabelChars - 1) + dots);
    for (int i = 0; i < labels.size(); ++i) {
        if (labels[i].size() <= kMaxLabelChars) continue;
        // Where this label first differs from every other one cut alike.
        int differs = 0;
        bool clash = false;
        for (int j = 0; j < labels.size(); ++j) {
            if (j == i || out[j] != out[i]) continue;
            clash = true;
            int k = 0;
            while (k < labels[i].size() && k < labels[j].size() && labels[i][k] == labels[j][k])
                ++k;
            differs = std::max(differs, k);
        }
        if (!clash) continue;
        constexpr int kHead = 16;
        const int tail = kMaxLabelChars - kHead - 2;
        const int from = std::clamp(differs - tail / 3, kHead,
                                    std::max(kHead, static_cast<int>(labels[i].size()) - tail));
        QString shown = labels[i].left(kHead) + dots + labels[i].mid(from, tail);
        if (from + tail < labels[i].size()) shown += dots;
        out[i] = shown;
    }
    return out;
}

// `text` broken into lines no wider than `width` at spaces (its own line breaks kept),
// so a note under a narrow plot wraps instead of running off both sides.
QString wrap_lines(const QString& text, const QFont& font, int width) {
    const QFontMetrics fm(font);
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && fm.horizontalAdvance(longer) > width) {
                lines << line;
                line = word;
            } else {
                line = longer;
            }
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

HeatmapPlot::HeatmapPlot(QWidget* parent) : QCustomPlot(parent) {
    // QCustomPlot's own minimum is its widest text (a long run name in the
    // title); a fixed one keeps a long title from widening the window.
    setMinimumSize(320, 200);
    plotLayout()->insertRow(0);
    title_ = new QCPTextElement(this, QString(),
                                QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plotLayout()->addElement(0, 0, title_);
    scale_ = new QCPColorScale(this);
    scale_->setType(QCPAxis::atRight);
    scale_->setBarWidth(14);
    plotLayout()->addElement(1, 1, scale_);
    note_ = new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() - 1));
    plotLayout()->addElement(2, 0, note_);
    auto* group = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    scale_->setMarginGroup(QCP::msTop | QCP::msBottom, group);

    map_ = new QCPColorMap(xAxis, yAxis);
    map_->setInterpolate(false);
    map_->setTightBoundary(false);
    map_->setColorScale(scale_);
    marks_ = new HeatmapMarks(this, xAxis, yAxis);
    yAxis->setRangeReversed(true);
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->grid()->setVisible(false);
        axis->setSubTicks(false);
        axis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    }
    setMouseTracking(true);
    connect(this, &QCustomPlot::mouseMove, this, &HeatmapPlot::onMouseMove);
    connect(this, &QCustomPlot::mousePress, this,
            [this](QMouseEvent* e) { press_pos_ = e->position().toPoint(); });
    connect(this, &QCustomPlot::mouseRelease, this, &HeatmapPlot::onMouseRelease);
    applyPalette();
    rebuild();
}

void HeatmapPlot::setHeatmap(HeatmapPlotData plot_data) {
    data_ = std::move(plot_data);
    rebuild();
}

void HeatmapPlot::setUnit(TimeUnit unit) {
    unit_ = unit;
    rebuild();
}

void HeatmapPlot::setColorRange(std::optional<double> lo, std::optional<double> hi) {
    range_override_ = true;
    range_lo_ = lo;
    range_hi_ = hi;
    applyColorRange();
    replot();
}

void HeatmapPlot::setTitle(const QString& title) {
    data_.title = title;
    fitTexts();
    replot();
}

void HeatmapPlot::setTitleElide(Qt::TextElideMode mode) {
    title_elide_ = mode;
    fitTexts();
}

void HeatmapPlot::setEmptyText(const QString& text) {
    empty_text_ = text;
    rebuild();
}

void HeatmapPlot::setLegendNoteVisible(bool visible) {
    // An empty text takes no room; a hidden layout element still would.
    note_visible_ = visible;
    rebuild();
}

QString HeatmapPlot::displayedTitle() const {
    return data_.title;
}

QString HeatmapPlot::noteText() const {
    return note_->text();
}

void HeatmapPlot::rebuild() {
    fillMap();
    labelAxes();
    updateMarks();
    applyColorRange();
    const bool empty = data_.row_count() == 0 || data_.column_count == 0;
    if (empty)
        note_text_ = empty_text_;
    else if (!note_visible_)
        note_text_.clear();
    else if (data_.delta)
        note_text_ =
            tr("Blue: B faster, red: B slower.\nHatched: blank, a run has no samples there.");
    else
        note_text_ = tr("Hatched: blank, no samples (never 0).  Red outline: %2 above the "
                        "row's SLA (1.2 x its peak %2 in the baseline, left of the dashed "
                        "line).\n%1 and a corner mark: recalibrate (3 windows after the "
                        "baseline above 0.9 x SLA).")
                         .arg(flag_mark().trimmed(), data_.value_name);
    fitTexts();
    replot();
}

// The title elided and the note wrapped to the plot's width: three plots side by side
// on a laptop are narrower than either.
void HeatmapPlot::fitTexts() {
    // Title and note share the plot's column, left of the colour scale and its labels.
    const int room = std::max(60, width() - kScaleRoom);
    const QFontMetrics fm(title_->font());
    const qsizetype colon = data_.title.indexOf(QStringLiteral(": "));
    const QString head = colon > 0 && colon < 8 ? data_.title.left(colon + 2) : QString();
    title_->setText(head + fm.elidedText(data_.title.mid(head.size()), title_elide_,
                                         room - fm.horizontalAdvance(head)));
    note_->setText(wrap_lines(note_text_, note_->font(), room));
}

void HeatmapPlot::fillMap() {
    const std::size_t rows = data_.row_count(), cols = data_.column_count;
    QCPColorMapData* d = map_->data();
    map_->setGradient(data_.delta ? diverging_gradient() : sequential_gradient());
    if (rows == 0 || cols == 0) {
        d->setSize(0, 0);
        map_->setVisible(false);
        xAxis->setRange(-0.5, 0.5);
        yAxis->setRange(-0.5, 0.5);
        return;
    }
    map_->setVisible(true);
    d->setSize(static_cast<int>(cols), static_cast<int>(rows));
    d->setRange(index_range(cols), index_range(rows));
    const double per = TimeFormat::ns_per_unit(unit_);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) {
            const auto& v = data_.value(r, c);
            d->setCell(static_cast<int>(c), static_cast<int>(r), v ? *v / per : nan);
        }
    xAxis->setRange(-0.5, static_cast<double>(cols) - 0.5);
    yAxis->setRange(-0.5, static_cast<double>(rows) - 0.5);
}

void HeatmapPlot::labelAxes() {
    auto rows = qSharedPointerCast<QCPAxisTickerText>(yAxis->ticker());
    rows->clear();
    // Kernel rows read by their short name (one rule, analysis/kernel_name.h), told
    // apart where two kernels shorten alike; the tooltip keeps the full one. Other
    // labels come back unchanged.
    std::vector<std::string> full;
    for (const QString& l : data_.row_labels) full.push_back(l.toStdString());
    QStringList shown;
    for (const std::string& name : analysis::distinct_short_kernel_names(full))
        shown << QString::fromStdString(name);
    shown = elide_distinct(shown);
    for (std::size_t r = 0; r < data_.row_count(); ++r) {
        const bool flagged = r < data_.row_flag.size() && data_.row_flag[r].has_value();
        rows->addTick(static_cast<double>(r),
                      shown[static_cast<int>(r)] + (flagged ? flag_mark() : QString()));
    }
    auto cols = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    cols->clear();
    const std::size_t n = data_.column_count;
    // As many labels as fit the plot's width, at most kMaxColumnLabels.
    const int room = axisRect()->width() > 0 ? axisRect()->width() : width();
    const auto labels =
        static_cast<std::size_t>(std::clamp(room / kColumnLabelPixels, 2, kMaxColumnLabels));
    const std::size_t stride = std::max<std::size_t>(1, (n + labels - 1) / labels);
    const bool timed = !data_.columns.empty();
    for (std::size_t c = 0; c < n; c += stride) {
        QString label = QStringLiteral("#%1").arg(c);
        if (c < static_cast<std::size_t>(data_.column_labels.size())) {
            label = data_.column_labels[static_cast<int>(c)];
        } else if (timed && c < data_.columns.size()) {
            const std::int64_t step = data_.columns.size() > 1
                                          ? data_.columns[1].start_ns - data_.columns[0].start_ns
                                          : data_.columns[0].end_ns - data_.columns[0].start_ns;
            label = TimeFormat::tick(data_.column_start(c) - data_.origin_ns,
                                     step * static_cast<std::int64_t>(stride), unit_);
        }
        cols->addTick(static_cast<double>(c), label);
    }
    xAxis->setLabel(!data_.column_labels.isEmpty() ? data_.column_axis
                    : timed                        ? tr("window start (from run start)")
                                                   : tr("window"));
    const QString what = data_.delta
                             ? tr("\u0394 %1 %2, B \u2212 A").arg(data_.value_name, data_.metric)
                             : tr("%1 %2").arg(data_.value_name, data_.metric);
    scale_->axis()->setLabel(QStringLiteral("%1 (%2)").arg(what, TimeFormat::suffix(unit_)));
}

void HeatmapPlot::updateMarks() {
    std::vector<std::pair<std::size_t, std::size_t>> breaches, flags;
    if (!data_.delta && data_.column_count > 0) {
        for (std::size_t r = 0; r < data_.row_count(); ++r) {
            for (std::size_t c = 0; c < data_.column_count; ++c)
                if (data_.breaches(r, c)) breaches.emplace_back(r, c);
            if (r < data_.row_flag.size() && data_.row_flag[r])
                flags.emplace_back(r, *data_.row_flag[r]);
        }
    }
    marks_->setBreaches(std::move(breaches));
    marks_->setFlags(std::move(flags));
    marks_->setBaseline(data_.delta ? 0 : data_.sla_baseline, data_.column_count);
}

void HeatmapPlot::applyColorRange() {
    std::optional<double> lo = range_override_ ? range_lo_ : data_.lo;
    std::optional<double> hi = range_override_ ? range_hi_ : data_.hi;
    const double per = TimeFormat::ns_per_unit(unit_);
    double a = lo.value_or(0) / per, b = hi.value_or(1) / per;
    if (!(b > a)) {
        // One value everywhere: centre it in a small range so it gets a mid colour.
        const double pad = std::max(std::abs(a) * 0.05, 1e-9);
        a -= pad;
        b += pad;
    }
    const bool log = log_scale_ && !data_.delta && a > 0;
    scale_->setDataScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    map_->setDataScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log)
        scale_->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else
        scale_->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    map_->setDataRange(QCPRange(a, b));
    scale_->setDataRange(QCPRange(a, b));
}

void HeatmapPlot::applyPalette() {
    PlotStyle::apply(this, palette());
    PlotStyle::applyAxis(scale_->axis(), palette());
    title_->setTextColor(palette().color(QPalette::WindowText));
    note_->setTextColor(palette().color(QPalette::WindowText));
    // Blank cells: transparent over this hatch, visibly unlike any colour of the scale.
    QColor hatch = palette().color(QPalette::WindowText);
    hatch.setAlpha(110);
    axisRect()->setBackground(QBrush(hatch, Qt::BDiagPattern));
    marks_->setColors(QColor(0xff, 0x2d, 0x55), palette().color(QPalette::Base));
}

void HeatmapPlot::resizeEvent(QResizeEvent* event) {
    QCustomPlot::resizeEvent(event);
    fitTexts();
    labelAxes();
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::setLogScale(bool log) {
    log_scale_ = log;
    applyColorRange();
    replot();
}

void HeatmapPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        replot();
    }
}

std::optional<std::pair<std::size_t, std::size_t>> HeatmapPlot::cellAt(QPointF pos) const {
    if (data_.row_count() == 0 || data_.column_count == 0) return std::nullopt;
    if (!axisRect()->rect().contains(pos.toPoint())) return std::nullopt;
    const double c = std::round(xAxis->pixelToCoord(pos.x()));
    const double r = std::round(yAxis->pixelToCoord(pos.y()));
    if (c < 0 || r < 0 || c >= static_cast<double>(data_.column_count) ||
        r >= static_cast<double>(data_.row_count()))
        return std::nullopt;
    return std::pair(static_cast<std::size_t>(r), static_cast<std::size_t>(c));
}

QPointF HeatmapPlot::cellCenter(std::size_t row, std::size_t column) const {
    return {xAxis->coordToPixel(static_cast<double>(column)),
            yAxis->coordToPixel(static_cast<double>(row))};
}

QString HeatmapPlot::valueText(double ns) const {
    return TimeFormat::duration(static_cast<std::int64_t>(std::llround(ns)), unit_);
}

QString HeatmapPlot::cellToolTip(std::size_t row, std::size_t column) const {
    if (tooltip_fn_) return tooltip_fn_(row, column);
    QString text = QStringLiteral("<b>%1</b><br>")
                       .arg(breakable_html(data_.row_labels[static_cast<int>(row)]));
    if (column < data_.columns.size()) {
        const auto& w = data_.columns[column];
        text += tr("window %1: %2 \u2013 %3<br>")
                    .arg(column)
                    .arg(TimeFormat::duration(data_.column_start(column) - data_.origin_ns, unit_),
                         TimeFormat::duration(w.end_ns - data_.origin_ns, unit_));
    } else {
        text += tr("window %1<br>").arg(column);
    }
    const auto& v = data_.value(row, column);
    if (data_.delta)
        return text + (v ? tr("\u0394 P95 (B \u2212 A): %1%2")
                               .arg(*v > 0 ? QStringLiteral("+") : QString(), valueText(*v))
                         : tr("blank: A or B has no samples here"));
    const std::size_t i = row * data_.column_count + column;
    const std::int64_t count = i < data_.counts.size() ? data_.counts[i] : 0;
    if (!v) return text + tr("blank: no samples");
    text += tr("P95 %1 (%2 samples)").arg(valueText(*v)).arg(count);
    // Kernels read from a file too large to read whole: a histogram per cell.
    if (data_.value_error > 0)
        text += tr("<br>within \u00b1%1% (from a duration histogram)")
                    .arg(data_.value_error * 100.0, 0, 'f', 1);
    if (row < data_.row_sla.size() && data_.row_sla[row])
        text += tr("<br>row SLA %1%2")
                    .arg(valueText(*data_.row_sla[row]),
                         data_.breaches(row, column) ? tr(" \u2014 <b>above SLA</b>") : QString());
    if (row < data_.row_flag.size() && data_.row_flag[row] && *data_.row_flag[row] == column)
        text += tr("<br>recalibration flag starts here");
    return text;
}

void HeatmapPlot::onMouseMove(QMouseEvent* event) {
    const auto cell = cellAt(event->position());
    if (!cell) {
        QToolTip::hideText();
        return;
    }
    show_tooltip(event->globalPosition().toPoint(), cellToolTip(cell->first, cell->second), this);
}

void HeatmapPlot::onMouseRelease(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    if ((event->position().toPoint() - press_pos_).manhattanLength() > 4) return;
    const auto cell = cellAt(event->position());
    if (!cell || cell->second >= data_.columns.size()) return;
    const auto& w = data_.columns[cell->second];
    emit cellPicked(static_cast<int>(cell->first), static_cast<int>(cell->second));
    emit cellActivated(data_.column_start(cell->second), w.end_ns);
}

}  // namespace tokenscope::ui::plots
