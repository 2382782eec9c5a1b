#include "sweep_plot.h"

#include <qcustomplot.h>
#include <QApplication>
#include <cmath>

#include "plot_exporter.h"

namespace tokenscope::ui::plots {
namespace {

QString param(const analysis::SweepPointSummary& p, const std::string& name) {
    auto it = p.params.find(name);
    return it == p.params.end() ? QString() : QString::fromStdString(it->second);
}

void add_title(QCustomPlot* plot, const QString& title) {
    plot->plotLayout()->insertRow(0);
    auto* text = new QCPTextElement(plot, title, QFont(QStringLiteral("sans"), 11, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, text);
}

// Latency figures are stored in ns and shown in ms.
bool is_time(const std::string& name) {
    return name.starts_with("ttft") || name.starts_with("tpot") || name.starts_with("e2e");
}

QString label(const std::string& name) {
    return QString::fromStdString(name) + (is_time(name) ? QStringLiteral(" (ms)") : QString());
}

QVector<double> scaled(const std::vector<double>& v, double f) {
    QVector<double> out;
    for (double x : v) out.push_back(x * f);
    return out;
}

QCPGraph* scatter(QCustomPlot* plot, const QVector<double>& x, const QVector<double>& y,
                  QColor colour, QCPScatterStyle::ScatterShape shape, double size, bool line) {
    QCPGraph* g = plot->addGraph();
    g->setData(x, y);
    g->setPen(QPen(colour, 2));
    g->setLineStyle(line ? QCPGraph::lsLine : QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(shape, colour, size));
    return g;
}

// The knee's marker, as the Pareto and knee plots both draw it; fy scales y to the axis.
QCPGraph* knee_marker(QCustomPlot* plot, const analysis::SweepCurve& c, double fy) {
    return scatter(plot, {c.x[*c.knee]}, {c.y[*c.knee] * fy}, QColor(200, 30, 30),
                   QCPScatterStyle::ssStar, 16, false);
}

// Axes named after the curve, the legend top left, the data in view, the title.
void finish_curve(QCustomPlot* plot, const analysis::SweepCurve& c, const QString& title) {
    plot->xAxis->setLabel(label(c.x_name));
    plot->yAxis->setLabel(label(c.y_name));
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot->rescaleAxes();
    add_title(plot, title);
}

}  // namespace

SweepPlot::Grid SweepPlot::gridOf(const std::vector<analysis::SweepPointSummary>& points,
                                  const std::vector<std::string>& axes) {
    Grid g;
    auto has = [&](const char* a) { return std::find(axes.begin(), axes.end(), a) != axes.end(); };
    if (!has("batch") || !has("prompt")) return g;
    auto band = [&](const analysis::SweepPointSummary& p) {
        QString b;
        for (const auto& a : axes)
            if (a != "batch" && a != "prompt")
                b += (b.isEmpty() ? QString() : QStringLiteral(" ")) + param(p, a);
        return b;
    };
    for (const auto& p : points) {
        const QString row = (band(p).isEmpty() ? QString() : band(p) + QStringLiteral("  ")) +
                            QStringLiteral("batch ") + param(p, "batch");
        if (!g.rows.contains(row)) g.rows.push_back(row);
        if (!g.columns.contains(param(p, "prompt"))) g.columns.push_back(param(p, "prompt"));
    }
    g.v.assign(static_cast<std::size_t>(g.rows.size()),
               std::vector<double>(static_cast<std::size_t>(g.columns.size()), NAN));
    for (const auto& p : points) {
        const QString row = (band(p).isEmpty() ? QString() : band(p) + QStringLiteral("  ")) +
                            QStringLiteral("batch ") + param(p, "batch");
        auto it = p.median.find("attainment");
        g.v[static_cast<std::size_t>(g.rows.indexOf(row))]
           [static_cast<std::size_t>(g.columns.indexOf(param(p, "prompt")))] =
            it == p.median.end() ? NAN : it->second;
    }
    return g;
}

void SweepPlot::drawGrid(QCustomPlot* plot, const Grid& grid, const QString& title) {
    plot->clearPlottables();
    plot->clearItems();
    const int nx = static_cast<int>(grid.columns.size()), ny = static_cast<int>(grid.rows.size());
    auto* map = new QCPColorMap(plot->xAxis, plot->yAxis);
    map->data()->setSize(nx, ny);
    map->data()->setRange(QCPRange(0, nx - 1), QCPRange(0, ny - 1));
    QCPColorGradient gradient;  // red (none met) through amber to green (all met)
    gradient.setColorStopAt(0.0, QColor(200, 40, 40));
    gradient.setColorStopAt(0.5, QColor(235, 180, 40));
    gradient.setColorStopAt(1.0, QColor(40, 160, 70));
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    map->setGradient(gradient);
    map->setDataRange(QCPRange(0.0, 1.0));
    map->setInterpolate(false);
    auto xt = QSharedPointer<QCPAxisTickerText>::create();
    auto yt = QSharedPointer<QCPAxisTickerText>::create();
    for (int x = 0; x < nx; ++x) xt->addTick(x, grid.columns[x]);
    for (int y = 0; y < ny; ++y) {
        // Row 0 at the top, as in the text grid.
        yt->addTick(ny - 1 - y, grid.rows[y]);
        for (int x = 0; x < nx; ++x) {
            const double v = grid.v[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)];
            map->data()->setCell(x, ny - 1 - y, v);
            auto* text = new QCPItemText(plot);
            text->position->setCoords(x, ny - 1 - y);
            text->setText(std::isnan(v) ? QStringLiteral("-")
                                        : QString::number(v * 100.0, 'f', 0) + QStringLiteral("%"));
            text->setFont(QFont(QStringLiteral("sans"), 10, QFont::Bold));
        }
    }
    plot->xAxis->setTicker(xt);
    plot->yAxis->setTicker(yt);
    plot->xAxis->setLabel(QStringLiteral("prompt (tokens)"));
    plot->xAxis->setRange(-0.5, nx - 0.5);
    plot->yAxis->setRange(-0.5, ny - 0.5);
    add_title(plot, title);
}

void SweepPlot::drawPareto(QCustomPlot* plot, const analysis::SweepCurve& c, const QString& title) {
    plot->clearGraphs();
    const double fy = is_time(c.y_name) ? 1e-6 : 1.0;
    auto* all = scatter(plot, QVector<double>(c.x.begin(), c.x.end()), scaled(c.y, fy),
                        QColor(120, 120, 120), QCPScatterStyle::ssCircle, 6, false);
    all->setName(QStringLiteral("points"));
    QVector<double> fx, fyv;
    for (std::size_t i : c.frontier) fx.push_back(c.x[i]), fyv.push_back(c.y[i] * fy);
    scatter(plot, fx, fyv, QColor(30, 100, 200), QCPScatterStyle::ssDisc, 8, true)
        ->setName(QStringLiteral("Pareto frontier"));
    if (c.fit.ok && !c.x.empty()) {
        QVector<double> x, y;
        for (int i = 0; i <= 100; ++i) {
            const double xi = c.x.front() + (c.x.back() - c.x.front()) * i / 100.0;
            x.push_back(xi);
            y.push_back(c.fit(xi) * fy);
        }
        auto* fit = scatter(plot, x, y, QColor(220, 90, 30), QCPScatterStyle::ssNone, 0, true);
        fit->setPen(QPen(QColor(220, 90, 30), 2, Qt::DashLine));
        fit->setName(QStringLiteral("fit y = %1 x^%2 + %3, R² = %4")
                         .arg(c.fit.a * fy, 0, 'g', 4)
                         .arg(c.fit.b, 0, 'g', 4)
                         .arg(c.fit.c * fy, 0, 'g', 4)
                         .arg(c.fit.r2, 0, 'f', 4));
    }
    if (c.knee) knee_marker(plot, c, fy)->setName(QStringLiteral("knee"));
    finish_curve(plot, c, title);
}

void SweepPlot::drawKnee(QCustomPlot* plot, const analysis::SweepCurve& c, const QString& title) {
    plot->clearGraphs();
    const double fy = is_time(c.y_name) ? 1e-6 : 1.0;
    scatter(plot, QVector<double>(c.x.begin(), c.x.end()), scaled(c.y, fy), QColor(30, 100, 200),
            QCPScatterStyle::ssCircle, 6, true)
        ->setName(QString::fromStdString(c.y_name));
    if (c.x.size() >= 2) {
        auto* chord = scatter(plot, {c.x.front(), c.x.back()}, {c.y.front() * fy, c.y.back() * fy},
                              QColor(140, 140, 140), QCPScatterStyle::ssNone, 0, true);
        chord->setPen(QPen(QColor(140, 140, 140), 1, Qt::DashLine));
        chord->setName(QStringLiteral("chord"));
    }
    if (c.knee)
        knee_marker(plot, c, fy)
            ->setName(QStringLiteral("knee at %1 = %2")
                          .arg(QString::fromStdString(c.x_name))
                          .arg(c.x[*c.knee]));
    finish_curve(plot, c, title);
}

void SweepPlot::drawStrategies(QCustomPlot* plot, const std::vector<analysis::StrategyRow>& rows,
                               const QString& title) {
    plot->clearPlottables();
    for (auto* g : plot->findChildren<QCPBarsGroup*>(Qt::FindDirectChildrenOnly)) delete g;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t i = 0; i < rows.size(); ++i)
        ticker->addTick(static_cast<double>(i),
                        QString::fromStdString(rows[i].strategy) +
                            (rows[i].context.empty()
                                 ? QString()
                                 : QStringLiteral("\n") + QString::fromStdString(rows[i].context)));
    auto* group = new QCPBarsGroup(plot);
    struct Series {
        const char* name;
        double analysis::StrategyRow::*value;
        double analysis::StrategyRow::*std;  // nullptr: no error bars
        QColor colour;
    };
    const Series series[] = {
        {"TTFT P50", &analysis::StrategyRow::ttft_p50, &analysis::StrategyRow::ttft_std,
         QColor(30, 100, 200)},
        {"TTFT P90", &analysis::StrategyRow::ttft_p90, nullptr, QColor(120, 170, 230)},
        {"TPOT P50", &analysis::StrategyRow::tpot_p50, &analysis::StrategyRow::tpot_std,
         QColor(220, 90, 30)},
        {"TPOT P90", &analysis::StrategyRow::tpot_p90, nullptr, QColor(240, 170, 120)},
    };
    for (const auto& s : series) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(QString::fromLatin1(s.name) +
                      (s.std ? QStringLiteral(" (±1 std)") : QString()));
        bars->setBrush(s.colour);
        bars->setPen(QPen(s.colour.darker(130)));
        bars->setWidth(0.18);
        bars->setBarsGroup(group);
        QVector<double> keys, values, errors;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const double v = rows[i].*s.value;
            keys.push_back(static_cast<double>(i));
            values.push_back(std::isnan(v) ? 0.0 : v * 1e-6);  // no TPOT: an absent bar
            errors.push_back(s.std && !std::isnan(rows[i].*s.std) ? rows[i].*s.std * 1e-6 : 0.0);
        }
        bars->setData(keys, values, true);
        if (!s.std) continue;
        auto* err = new QCPErrorBars(plot->xAxis, plot->yAxis);
        err->removeFromLegend();
        err->setDataPlottable(bars);
        err->setData(errors);
        err->setPen(QPen(Qt::black, 1.5));
    }
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setRange(-0.6, static_cast<double>(rows.size()) - 0.4);
    plot->yAxis->setLabel(QStringLiteral("ms (requests of all counted runs)"));
    plot->rescaleAxes(true);
    plot->xAxis->setRange(-0.6, static_cast<double>(rows.size()) - 0.4);
    const QCPRange y = plot->yAxis->range();
    plot->yAxis->setRange(0.0, y.upper > 0 ? y.upper * 1.15 : 1.0);
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    add_title(plot, title);
}

bool render_sweep_image(SweepImage kind, const std::vector<analysis::SweepPointSummary>& points,
                        const std::vector<std::string>& axes, const analysis::SweepCurve& curve,
                        const QString& title, const QString& path, QSize size, int dpi,
                        QString* error) {
    auto fail = [&](const QString& why) {
        if (error != nullptr) *error = QStringLiteral("%1: %2").arg(path, why);
        return false;
    };
    if (qobject_cast<QApplication*>(QCoreApplication::instance()) == nullptr)
        return fail(QStringLiteral("rendering needs a QApplication (offscreen platform)"));
    if (const QString bad = PlotExporter::checkSize(size, dpi); !bad.isEmpty()) return fail(bad);
    QCustomPlot plot;
    plot.resize(PlotExporter::layoutSize(size, dpi));
    if (kind == SweepImage::Strategies) {
        const auto rows = analysis::strategy_comparison(points, axes);
        if (rows.empty()) return fail(QStringLiteral("the sweep has no strategy axis"));
        SweepPlot::drawStrategies(&plot, rows, title);
    } else if (kind == SweepImage::Grid) {
        const auto grid = SweepPlot::gridOf(points, axes);
        if (grid.rows.isEmpty())
            return fail(QStringLiteral("the sweep has no batch and prompt axes"));
        SweepPlot::drawGrid(&plot, grid, title);
    } else if (curve.x.empty()) {
        return fail(
            QStringLiteral("no point has both %1 and %2")
                .arg(QString::fromStdString(curve.x_name), QString::fromStdString(curve.y_name)));
    } else if (kind == SweepImage::Pareto) {
        SweepPlot::drawPareto(&plot, curve, title);
    } else {
        SweepPlot::drawKnee(&plot, curve, title);
    }
    return PlotExporter::save(&plot, path, size, dpi, error);
}

}  // namespace tokenscope::ui::plots
