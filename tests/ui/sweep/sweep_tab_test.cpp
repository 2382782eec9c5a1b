// The Sweep tab on a real sweep file written by tokenscope-cli: the attainment grid
// against attainment computed here from the runs' requests, SLA edits, the table
// model, exports, and a grid click selecting the point's run in the main window.
#include <qcustomplot.h>
#include <QAbstractItemModelTester>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListView>
#include <QProcess>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>

#include "store/sweep_store.h"
#include "support/test_settings.h"
#include "ui/shared/run_list_model.h"
#include "ui/sweep/sweep_point_model.h"
#include "ui/sweep/sweep_tab.h"
#include "ui/window/main_window.h"

using namespace tokenscope;

namespace {

// Attainment of one run, from the definition (docs/sweeps.md, SLA attainment), not the analysis.
double run_attainment(const std::vector<trace::Request>& requests, std::int64_t ttft_ns) {
    if (requests.empty()) return 0.0;
    int met = 0;
    for (const auto& r : requests)
        if (!r.failed && r.first_token_ns - r.arrival_ns <= ttft_ns) ++met;
    return static_cast<double>(met) / static_cast<double>(requests.size());
}

}  // namespace

class SweepTabTest : public QObject {
    Q_OBJECT
  private:
    QTemporaryDir dir_;
    QString file_;
    // point -> params and the requests of each counted run
    struct Point {
        QString batch, prompt;
        std::vector<std::vector<trace::Request>> runs;
        std::vector<std::int64_t> run_ids;
    };
    std::map<int, Point> points_;

    void openInto(ui::SweepTab& tab) {
        QSignalSpy loaded(&tab, &ui::SweepTab::sweepLoaded);
        tab.openFiles({file_});
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 20000);
        QVERIFY(loaded.at(0).at(0).toBool());
        QTRY_VERIFY_WITH_TIMEOUT(!tab.busy(), 20000);
    }
    // Sets the bounds and waits for the redraw they cause.
    void setSla(ui::SweepTab& tab, std::optional<double> ttft, std::optional<double> tpot) {
        QSignalSpy done(&tab, &ui::SweepTab::summarized);
        tab.setSla(ttft, tpot);
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 20000);
    }
    static double cell(const ui::SweepTab& tab, int row, int column) {
        return tab.grid().v.at(static_cast<std::size_t>(row)).at(static_cast<std::size_t>(column));
    }

  private slots:
    void initTestCase() {
        tokenscope::test::use_test_settings(QStringLiteral("sweep_tab_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        file_ = dir_.filePath(QStringLiteral("sweep.tokenscope"));
        QProcess cli;
        cli.start(
            QStringLiteral(TOKENSCOPE_CLI_PATH),
            {"sweep", "--out", file_, "--preset", "tiny", "--batch", "1,2", "--prompt", "16,32",
             "--tokens", "8", "--repeats", "2", "--warmup", "0", "--progress", "none"});
        QVERIFY2(cli.waitForFinished(120000), qPrintable(cli.errorString()));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        store::SweepStore store(file_.toStdString(), true);
        const auto sweeps = store.sweeps();
        QCOMPARE(sweeps.size(), std::size_t{1});
        for (const auto& p : store.points(sweeps.back().id)) {
            Point& pt = points_[p.point];
            const QJsonObject params = QJsonDocument::fromJson(p.params_json.c_str()).object();
            pt.batch = params.value("batch").toVariant().toString();
            pt.prompt = params.value("prompt").toVariant().toString();
            pt.runs.push_back(store.requests(p.run_id));
            pt.run_ids.push_back(p.run_id);
        }
        QCOMPARE(points_.size(), std::size_t{4});
        for (const auto& [i, p] : points_) QCOMPARE(p.runs.size(), std::size_t{2});
    }

    void gridIsTwoByTwoAndFollowsTheBounds() {
        ui::SweepTab tab;
        openInto(tab);
        QVERIFY(tab.hasSweep());
        QCOMPARE(tab.grid().rows.size(), 2);
        QCOMPARE(tab.grid().columns.size(), 2);
        setSla(tab, 1e6, 1e6);  // far above every latency: all met
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 2; ++c) QCOMPARE(cell(tab, r, c), 1.0);
        setSla(tab, 0.001, std::nullopt);  // 1 µs: nothing met
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 2; ++c) QCOMPARE(cell(tab, r, c), 0.0);
    }

    // A TTFT bound at the median of all requests' TTFTs splits the points; each cell
    // must be the median over its two runs of the attainment computed here.
    void gridMatchesAttainmentFromTheRequests() {
        std::vector<double> ttfts;
        for (const auto& [i, p] : points_)
            for (const auto& run : p.runs)
                for (const auto& r : run) ttfts.push_back(double(r.first_token_ns - r.arrival_ns));
        std::sort(ttfts.begin(), ttfts.end());
        const double bound_ms = std::round(ttfts[ttfts.size() / 2] / 1000.0) / 1000.0;
        const auto bound_ns = std::llround(bound_ms * 1e6);
        ui::SweepTab tab;
        openInto(tab);
        setSla(tab, bound_ms, std::nullopt);
        int checked = 0;
        double sum = 0.0;
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 2; ++c) {
                const int row = tab.rowOfCell(r, c);
                QVERIFY(row >= 0);
                const auto* sp = tab.pointModel()->point(row);
                const Point& p = points_.at(sp->point);
                QCOMPARE(tab.grid().rows[r], QStringLiteral("batch ") + p.batch);
                QCOMPARE(tab.grid().columns[c], p.prompt);
                const double a0 = run_attainment(p.runs[0], bound_ns);
                const double a1 = run_attainment(p.runs[1], bound_ns);
                QVERIFY(std::abs(cell(tab, r, c) - (a0 + a1) / 2.0) < 1e-9);
                QVERIFY(tab.cellToolTip(r, c).contains(QStringLiteral("attainment")));
                sum += cell(tab, r, c);
                ++checked;
            }
        QCOMPARE(checked, 4);
        QVERIFY2(sum > 0.0 && sum < 4.0, "the median bound must meet some requests and miss some");
    }

    void widgetsByNameEditAndExport() {
        ui::SweepTab tab;
        auto* tester = new QAbstractItemModelTester(
            tab.pointModel(), QAbstractItemModelTester::FailureReportingMode::QtTest, &tab);
        Q_UNUSED(tester);
        openInto(tab);
        auto* ttft = tab.findChild<QDoubleSpinBox*>(QStringLiteral("slaTtft"));
        auto* tpot = tab.findChild<QDoubleSpinBox*>(QStringLiteral("slaTpot"));
        QVERIFY(ttft && tpot);
        QVERIFY(tab.findChild<QCustomPlot*>(QStringLiteral("sweepGrid")));
        QVERIFY(tab.findChild<QCustomPlot*>(QStringLiteral("sweepPareto")));
        auto* table = tab.findChild<QTableView*>(QStringLiteral("sweepTable"));
        QVERIFY(table);
        QCOMPARE(table->model()->rowCount(), 4);
        QSignalSpy done(&tab, &ui::SweepTab::summarized);
        tpot->setValue(0.0);
        QTRY_VERIFY_WITH_TIMEOUT(done.size() >= 1 && !tab.busy(), 20000);
        done.clear();
        ttft->setValue(1e6);  // a typed edit redraws by itself, no button
        QTRY_VERIFY_WITH_TIMEOUT(done.size() >= 1 && !tab.busy(), 20000);
        QCOMPARE(cell(tab, 0, 0), 1.0);
        done.clear();
        ttft->setValue(0.001);
        QTRY_VERIFY_WITH_TIMEOUT(done.size() >= 1 && !tab.busy(), 20000);
        QCOMPARE(cell(tab, 0, 0), 0.0);
        int att = -1;
        for (int c = 0; c < table->model()->columnCount(); ++c)
            if (table->model()->headerData(c, Qt::Horizontal).toString().startsWith("attainment"))
                att = c;
        QVERIFY(att >= 0);
        QCOMPARE(table->model()->data(table->model()->index(0, att)).toString().toDouble(), 0.0);

        tab.resize(1400, 900);
        for (const char* ext : {"png", "svg", "pdf"})
            for (auto kind : {ui::plots::SweepImage::Grid, ui::plots::SweepImage::Pareto,
                              ui::plots::SweepImage::Knee}) {
                const QString out =
                    dir_.filePath(QStringLiteral("plot%1.%2").arg(int(kind)).arg(ext));
                QString error;
                QVERIFY2(tab.exportImage(kind, out, &error), qPrintable(error));
                QVERIFY(QFileInfo(out).size() > 100);
            }
        const QString csv = dir_.filePath(QStringLiteral("points.csv"));
        QVERIFY(tab.exportTable(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        QVERIFY(lines[0].startsWith(QStringLiteral("point,")));
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        tab.grab().save(QStringLiteral("/tmp/sweep_tab.png"));
    }

    // The main window shows the tab for a sweep file, and a click on a cell selects
    // that point's first run in the run list.
    void clickOnACellSelectsItsRun() {
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFiles({file_});
        ui::SweepTab* tab = w.sweepTab();
        QTRY_VERIFY_WITH_TIMEOUT(w.tabs()->indexOf(tab) >= 0, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!tab->busy() && tab->grid().rows.size() == 2, 20000);
        w.tabs()->setCurrentWidget(tab);
        QApplication::processEvents();
        tab->gridPlot()->replot();
        const int row = tab->rowOfCell(1, 1);
        const auto* sp = tab->pointModel()->point(row);
        const std::int64_t want = points_.at(sp->point).run_ids.front();
        // Opening selected the file's first run; the click must move the selection.
        QVERIFY(w.runList()->run(w.runListView()->currentIndex().row()).data->info.id != want);
        QTest::mouseClick(tab->gridPlot(), Qt::LeftButton, {}, tab->cellCentre(1, 1));
        const QModelIndex current = w.runListView()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(w.runList()->run(current.row()).data->info.id, want);
        QCOMPARE(w.runList()->run(current.row()).path, file_);
    }
};

QTEST_MAIN(SweepTabTest)
#include "sweep_tab_test.moc"
