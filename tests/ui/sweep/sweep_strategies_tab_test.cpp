// The Sweep tab's decoding-strategy comparison on a real strategy sweep written by
// tokenscope-cli: one bar group per strategy with TTFT and TPOT P50/P90 computed
// here from the runs' requests, and its PNG/SVG/PDF/CSV export; hidden for a
// sweep without a strategy axis.
#include <qcustomplot.h>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

#include "store/sweep_store.h"
#include "ui/sweep/sweep_tab.h"

using namespace tokenscope;

namespace {

double percentile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    const double pos = q / 100.0 * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

bool sweep(const QStringList& args) {
    QProcess cli;
    cli.start(QStringLiteral(TOKENSCOPE_CLI_PATH), args);
    if (!cli.waitForFinished(120000)) return false;
    if (cli.exitCode() != 0) qWarning("%s", cli.readAllStandardError().constData());
    return cli.exitCode() == 0;
}

}  // namespace

class SweepStrategiesTabTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    void open(ui::SweepTab& tab, const QString& file) {
        QSignalSpy done(&tab, &ui::SweepTab::summarized);
        tab.openFiles({file});
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!tab.busy(), 20000);
    }

  private slots:
    void strategiesSideBySideAndExported() {
        const QString file = dir_.filePath(QStringLiteral("strat.tokenscope"));
        QVERIFY(sweep({"sweep", "--out", file, "--preset", "tiny", "--batch", "2", "--prompt", "16",
                       "--tokens", "6", "--strategy", "greedy,beam:2", "--warmup", "0", "--repeats",
                       "2", "--progress", "none"}));
        ui::SweepTab tab;
        tab.resize(1400, 900);
        open(tab, file);
        QCOMPARE(tab.strategies().size(), std::size_t{2});
        QVERIFY(tab.strategyPlot()->isVisibleTo(&tab));
        // The bars: 4 series (TTFT P50/P90, TPOT P50/P90) of one value per strategy.
        QCustomPlot* plot = tab.strategyPlot();
        QList<QCPBars*> bars;
        for (int i = 0; i < plot->plottableCount(); ++i)
            if (auto* b = qobject_cast<QCPBars*>(plot->plottable(i))) bars << b;
        QCOMPARE(bars.size(), 4);
        store::SweepStore store(file.toStdString(), true);
        const auto points = store.points(store.sweeps().back().id);
        for (int p = 0; p < 2; ++p) {
            std::vector<double> ttft, tpot;
            for (const auto& pt : points)
                if (pt.point == p)
                    for (const auto& r : store.requests(pt.run_id)) {
                        ttft.push_back(double(r.first_token_ns - r.arrival_ns));
                        tpot.push_back(double(r.done_ns - r.first_token_ns) / (r.output_len - 1));
                    }
            QCOMPARE(ttft.size(), std::size_t{4});
            const double want[] = {percentile(ttft, 50), percentile(ttft, 90), percentile(tpot, 50),
                                   percentile(tpot, 90)};
            for (int s = 0; s < 4; ++s) {
                const auto it = bars[s]->data()->findBegin(p, false);
                QVERIFY(it != bars[s]->data()->constEnd());
                QVERIFY2(std::abs(it->value - want[s] * 1e-6) < 1e-9,
                         qPrintable(QStringLiteral("strategy %1 series %2: %3 vs %4")
                                        .arg(p)
                                        .arg(s)
                                        .arg(it->value)
                                        .arg(want[s] * 1e-6)));
            }
        }
        for (const char* ext : {"png", "svg", "pdf"}) {
            const QString out = dir_.filePath(QStringLiteral("strategies.%1").arg(ext));
            QString error;
            QVERIFY2(tab.exportStrategies(out, &error), qPrintable(error));
            QVERIFY(QFileInfo(out).size() > 100);
        }
        const QString csv = dir_.filePath(QStringLiteral("strategies.csv"));
        QVERIFY(tab.exportStrategies(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[1].contains(QStringLiteral(",greedy,")));
        QVERIFY(lines[2].contains(QStringLiteral(",beam:2,")));
    }

    void hiddenWithoutAStrategyAxis() {
        const QString file = dir_.filePath(QStringLiteral("plain.tokenscope"));
        QVERIFY(
            sweep({"sweep", "--out", file, "--preset", "tiny", "--batch", "1,2", "--prompt", "16",
                   "--tokens", "4", "--warmup", "0", "--repeats", "1", "--progress", "none"}));
        ui::SweepTab tab;
        open(tab, file);
        QVERIFY(tab.strategies().empty());
        QVERIFY(!tab.strategyPlot()->isVisibleTo(&tab));
        QString error;
        QVERIFY(!tab.exportStrategies(dir_.filePath(QStringLiteral("x.png")), &error));
        QVERIFY2(error.contains(QStringLiteral("no strategy axis")), qPrintable(error));
    }
};

QTEST_MAIN(SweepStrategiesTabTest)
#include "sweep_strategies_tab_test.moc"
