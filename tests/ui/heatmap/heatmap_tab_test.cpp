// The Heatmap tab: what analysis::compute_heatmap gives, drawn; blank cells are NaN,
// SLA breaches are marked, a click emits the cell's window, export writes files.
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include <QCheckBox>
#include "../hand_run.h"
#include "analysis/heatmap/heatmap.h"

#include "support/fixtures.h"
#include "support/test_settings.h"
#include "ui/heatmap/heatmap_controls.h"
#include "ui/heatmap/heatmap_tab.h"
#include "ui/plots/heatmap_marks.h"
#include "ui/plots/heatmap_plot.h"
#include "ui/window/run_loader.h"

using namespace tokenscope;

namespace {

// Request 1: prefill [0, 5000); decode [5000, 7000), [7000, 9000), [25000, 28000),
// [28000, 32000). With 10 us time windows from 0 the step latencies (placed at the
// step's end) fall into 4 windows:
//            [0,10k)  [10k,20k)  [20k,30k)  [30k,40k)
//   prefill   5000      blank      blank      blank
//   decode    2000      blank      3000       4000
trace::RunData heatmap_run(trace::Source source = trace::Source::Cuda) {
    trace::RunData run = test::hand_run("heat run", source);
    run.steps = {{1, 0, trace::Phase::Prefill, 0, 5000, 0},
                 {1, 1, trace::Phase::Decode, 5000, 7000, 0},
                 {1, 2, trace::Phase::Decode, 7000, 9000, 0},
                 {1, 3, trace::Phase::Decode, 25000, 28000, 0},
                 {1, 4, trace::Phase::Decode, 28000, 32000, 0}};
    run.requests = {{1, 0, 5000, 32000, 16, 5, false}};
    return run;
}

analysis::HeatmapSpec time_spec(std::size_t sla_windows = 0) {
    analysis::HeatmapSpec spec;
    spec.rows = analysis::HeatmapRows::Phase;
    spec.metric = analysis::HeatmapMetric::StepLatency;
    spec.window = analysis::WindowKind::Time;
    spec.window_size = 10000;
    spec.sla_windows = sla_windows;
    return spec;
}

}  // namespace

class HeatmapTabTest : public QObject {
    Q_OBJECT

    static void open(ui::HeatmapTab& tab, const ui::OpenRun& run,
                     const analysis::HeatmapSpec& spec) {
        tab.controls()->setSpec(spec);
        QSignalSpy ready(&tab, &ui::HeatmapTab::heatmapReady);
        tab.setRun(run);
        QTRY_COMPARE(ready.count(), 1);
    }

  private slots:
    void initTestCase() {
        tokenscope::test::use_test_settings(QStringLiteral("heatmap_tab_test"));
        QSettings().clear();
    }

    void openingARunFillsTheColorMap() {
        ui::HeatmapTab tab;
        tab.resize(1000, 600);
        const ui::OpenRun run = test::open_run(heatmap_run());
        open(tab, run, time_spec());
        // The same spec through the engine, and the counts worked out above.
        const analysis::Heatmap engine = analysis::compute_heatmap(*run.data, time_spec());
        QCOMPARE(engine.row_count(), std::size_t(2));
        QCOMPARE(engine.column_count(), std::size_t(4));
        QCPColorMapData* d = tab.plot()->colorMap()->data();
        QCOMPARE(d->keySize(), 4);
        QCOMPARE(d->valueSize(), 2);
        QCOMPARE(tab.heatmap()->row_count(), engine.row_count());
        QCOMPARE(tab.heatmap()->column_count(), engine.column_count());
        // Cells in ms (key = window, value = row): decode window 0 is 2000 ns.
        QCOMPARE(d->cell(0, 0), 0.005);
        QCOMPARE(d->cell(0, 1), 0.002);
        QCOMPARE(d->cell(2, 1), 0.003);
        QCOMPARE(d->cell(3, 1), 0.004);
        // Blank windows are NaN (drawn transparent over the hatch), never 0.
        QVERIFY(std::isnan(d->cell(1, 0)));
        QVERIFY(std::isnan(d->cell(1, 1)));
        QVERIFY(std::isnan(d->cell(3, 0)));
        // Colour range: min and max over non-empty cells, 2000 .. 5000 ns.
        QCOMPARE(tab.plot()->colorScale()->dataRange().lower, 0.002);
        QCOMPARE(tab.plot()->colorScale()->dataRange().upper, 0.005);
        QVERIFY(tab.plot()->colorScale()->axis()->label().contains(QStringLiteral("ms")));
        QVERIFY(tab.statusText().contains(QStringLiteral("2 rows x 4 windows, 5 samples")));
        QVERIFY(!tab.plot()->displayedTitle().contains(QStringLiteral("(model)")));
    }

    void tooltipGivesP95AndCount() {
        ui::HeatmapTab tab;
        open(tab, test::open_run(heatmap_run()), time_spec());
        const QString decode0 = tab.plot()->cellToolTip(1, 0);
        QVERIFY2(decode0.contains(QStringLiteral("P95 0.002 ms (2 samples)")), qPrintable(decode0));
        QVERIFY(decode0.contains(QStringLiteral("decode")));
        QVERIFY(tab.plot()->cellToolTip(1, 1).contains(QStringLiteral("blank")));
        tab.setUnit(ui::plots::TimeUnit::Microseconds);
        QVERIFY(tab.plot()->cellToolTip(1, 3).contains(QStringLiteral("P95 4.000 us (1 samples)")));
        QCOMPARE(tab.plot()->colorMap()->data()->cell(3, 1), 4.0);
    }

    void slaBreachesAreMarked() {
        ui::HeatmapTab tab;
        // Calibrated on the first window: decode SLA = 1.2 x 2000 = 2400 ns, so 3000 and
        // 4000 breach; prefill SLA = 6000, nothing breaches. No flag: the blank window 1
        // breaks decode's run of windows above 0.9 x SLA = 2160.
        open(tab, test::open_run(heatmap_run()), time_spec(1));
        QCOMPARE(tab.plot()->marks()->breachCount(), std::size_t(2));
        QCOMPARE(tab.plot()->marks()->flagCount(), std::size_t(0));
        QVERIFY(tab.plot()->cellToolTip(1, 2).contains(QStringLiteral("above SLA")));
        QVERIFY(!tab.plot()->cellToolTip(1, 0).contains(QStringLiteral("above SLA")));
        // The baseline (window 0) ends at the dashed line before window 1.
        QCOMPARE(tab.plot()->marks()->baseline(), std::size_t(1));
        // Calibrating on every window can never breach (peak < 1.2 x peak); no line.
        open(tab, test::open_run(heatmap_run()), time_spec(4));
        QCOMPARE(tab.plot()->marks()->breachCount(), std::size_t(0));
        QCOMPARE(tab.plot()->marks()->baseline(), std::size_t(0));
        // By default the first half (2 of 4 windows) is the baseline: decode's
        // SLA is 2400 again, and 3000 and 4000 breach.
        open(tab, test::open_run(heatmap_run()), time_spec(0));
        QCOMPARE(tab.heatmap()->sla_baseline, std::size_t(2));
        QCOMPARE(tab.plot()->marks()->baseline(), std::size_t(2));
        QCOMPARE(tab.plot()->marks()->breachCount(), std::size_t(2));
    }

    void clickingACellEmitsItsWindow() {
        ui::HeatmapTab tab;
        tab.resize(1000, 600);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        open(tab, test::open_run(heatmap_run()), time_spec());
        tab.plot()->replot();
        QSignalSpy activated(&tab, &ui::HeatmapTab::cellActivated);
        const QPoint at = tab.plot()->cellCenter(1, 2).toPoint();
        QCOMPARE(tab.plot()->cellAt(at), std::optional(std::pair<std::size_t, std::size_t>(1, 2)));
        QTest::mouseClick(tab.plot(), Qt::LeftButton, {}, at);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated[0][0].toLongLong(), 20000);
        QCOMPARE(activated[0][1].toLongLong(), 30000);
        // Outside the cells: nothing.
        QTest::mouseClick(tab.plot(), Qt::LeftButton, {}, QPoint(2, 2));
        QCOMPARE(activated.count(), 1);
    }

    void logColourScaleIsAChoice() {
        ui::HeatmapTab tab;
        open(tab, test::open_run(heatmap_run()), time_spec());
        QCOMPARE(tab.plot()->colorScale()->dataScaleType(), QCPAxis::stLinear);
        tab.logScaleBox()->setChecked(true);
        QCOMPARE(tab.plot()->colorScale()->dataScaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(tab.plot()->colorScale()->dataRange().lower, 0.002);
        tab.logScaleBox()->setChecked(false);
        QCOMPARE(tab.plot()->colorScale()->dataScaleType(), QCPAxis::stLinear);
    }

    void modelRunIsLabelled() {
        ui::HeatmapTab tab;
        open(tab, test::open_run(heatmap_run(trace::Source::Model)), time_spec());
        QVERIFY2(tab.plot()->displayedTitle().contains(QStringLiteral("heat run (model)")),
                 qPrintable(tab.plot()->displayedTitle()));
    }

    void kernelRowsTakeKernelDurations() {
        ui::HeatmapTab tab;
        analysis::HeatmapSpec spec = time_spec();
        spec.rows = analysis::HeatmapRows::Kernel;
        spec.metric = analysis::HeatmapMetric::StepLatency;  // does not fit: the view fixes it
        tab.controls()->setSpec(spec);
        QCOMPARE(tab.controls()->spec().metric, analysis::HeatmapMetric::KernelDuration);
        open(tab, test::open_run(heatmap_run()), tab.controls()->spec());
        // One kernel, gemm_bf16 [2000, 12000), placed at its start: one row, one window.
        QCOMPARE(tab.heatmap()->row_count(), std::size_t(1));
        QCOMPARE(tab.plot()->colorMap()->data()->cell(0, 0), 0.010);
    }

    // A PyTorch profiler trace has 6 ProfilerStep iterations: 16-step phase
    // windows would give one cell. It opens with kernel rows over time windows
    // giving at least 8 columns.
    void foreignTraceOpensWithKernelRowsAndEightWindows() {
        TOKENSCOPE_QT_NEED_FIXTURE("kineto/hta_v100_ns_resolution_rank0.json.gz");
        QSettings().clear();
        auto runs = ui::RunLoader::load(
            std::string(TOKENSCOPE_FIXTURES_DIR) + "/kineto/hta_v100_ns_resolution_rank0.json.gz",
            {});
        QVERIFY(!runs.empty());
        ui::HeatmapTab tab;
        QSignalSpy ready(&tab, &ui::HeatmapTab::heatmapReady);
        tab.setRun(test::open_run(std::move(runs[0])));
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 20000);
        QCOMPARE(tab.heatmap()->spec.rows, analysis::HeatmapRows::Kernel);
        QCOMPARE(tab.heatmap()->spec.metric, analysis::HeatmapMetric::KernelDuration);
        QVERIFY2(tab.heatmap()->column_count() >= 8,
                 qPrintable(QString::number(tab.heatmap()->column_count())));
        QVERIFY(tab.heatmap()->row_count() > 1);
    }

    // Our own decode runs open with phase rows over 16-step windows.
    void decodeRunOpensWithPhaseRows() {
        QSettings().clear();
        ui::HeatmapTab tab;
        QSignalSpy ready(&tab, &ui::HeatmapTab::heatmapReady);
        tab.setRun(test::open_run(heatmap_run()));
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(tab.heatmap()->spec.rows, analysis::HeatmapRows::Phase);
        QCOMPARE(tab.heatmap()->spec.window, analysis::WindowKind::Steps);
        QCOMPARE(tab.heatmap()->spec.window_size, std::int64_t(16));
    }

    // The user's choice on a decode run is kept for decode runs, and does not
    // replace a trace's default.
    void choiceIsRememberedPerKindOfRun() {
        QSettings().clear();
        ui::HeatmapTab tab;
        QSignalSpy ready(&tab, &ui::HeatmapTab::heatmapReady);
        tab.setRun(test::open_run(heatmap_run()));
        QTRY_COMPARE(ready.count(), 1);
        QComboBox* rows = tab.controls()->rowsBox();
        rows->setCurrentIndex(rows->findData(int(analysis::HeatmapRows::Request)));
        QTRY_COMPARE(ready.count(), 2);
        QCOMPARE(tab.heatmap()->spec.rows, analysis::HeatmapRows::Request);
        tab.setRun(test::open_run(heatmap_run(trace::Source::Kineto)));
        QTRY_COMPARE(ready.count(), 3);
        QCOMPARE(tab.heatmap()->spec.rows, analysis::HeatmapRows::Kernel);
        tab.setRun(test::open_run(heatmap_run(trace::Source::Model)));
        QTRY_COMPARE(ready.count(), 4);
        QCOMPARE(tab.heatmap()->spec.rows, analysis::HeatmapRows::Request);
    }

    void noRunShowsNothing() {
        ui::HeatmapTab tab;
        QCOMPARE(tab.plot()->colorMap()->data()->keySize(), 0);
        QVERIFY(!tab.heatmap().has_value());
        QString error;
        QTemporaryDir dir;
        QVERIFY(!tab.exportTo(dir.filePath(QStringLiteral("x.png")), QSize(800, 600), 96, &error));
        QVERIFY(error.contains(QStringLiteral("x.png")));
    }

    void exportWritesEveryFormat() {
        ui::HeatmapTab tab;
        tab.resize(1000, 600);
        open(tab, test::open_run(heatmap_run()), time_spec());
        QTemporaryDir dir;
        for (const char* name : {"h.png", "h.svg", "h.pdf", "h.csv"}) {
            QString error;
            const QString path = dir.filePath(QString::fromLatin1(name));
            QVERIFY2(tab.exportTo(path, QSize(900, 600), 96, &error), qPrintable(error));
            QVERIFY(QFileInfo(path).size() > 0);
        }
        QCOMPARE(QImage(dir.filePath(QStringLiteral("h.png"))).size(), QSize(900, 600));
        QFile csv(dir.filePath(QStringLiteral("h.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        // The CLI's matrix: window starts in ns, P95 in ns, blank cells empty.
        QCOMPARE(
            QString::fromUtf8(csv.readAll()),
            QStringLiteral("row,0,10000,20000,30000\nprefill,5000,,,\ndecode,2000,,3000,4000\n"));
    }
};

QTEST_MAIN(HeatmapTabTest)
#include "heatmap_tab_test.moc"
