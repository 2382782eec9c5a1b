// Issue 15: opening a run in the window analyses it once. The Breakdown tab and the
// Attribution dock read one analysis (ui::RunAnalyzer), so the run's coverage, the
// costly part of attribution, is built once per opened run, counted by
// analysis::Coverage::whole_run_builds(). Before, the window built it three times.
// The Heatmap and Compare tabs claim from the same analyzer: two runs compared build one
// coverage each (Compare used to build its own for A and B), and a heatmap under one
// spec is computed once for both tabs (analysis::heatmap_builds()).
#include <QListView>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "../hand_run.h"
#include "../settle.h"
#include "analysis/attribution/coverage.h"
#include "analysis/attribution/stored_attribution.h"
#include "analysis/heatmap/heatmap.h"
#include "store/store_reader.h"
#include "support/hand_store.h"
#include "support/test_settings.h"
#include "ui/breakdown/attribution_panel.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/compare/compare_tab.h"
#include "ui/heatmap/heatmap_controls.h"
#include "ui/heatmap/heatmap_tab.h"
#include "ui/shared/background_query.h"
#include "ui/shared/run_analyzer.h"
#include "ui/shared/run_list_model.h"
#include "ui/window/main_window.h"

using namespace tokenscope;

class RunAnalysisOnceTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // Opens `path` through File > Open's path and waits for both verdicts and for the
    // pool to be idle (so no view's work is still on its way).
    static void open_and_settle(ui::MainWindow& window, const QString& path) {
        QSignalSpy breakdown(window.breakdownTab(), &ui::BreakdownTab::breakdownReady);
        QSignalSpy verdict(window.attributionPanel(), &ui::AttributionPanel::verdictReady);
        window.openFiles({path});
        QTRY_COMPARE_WITH_TIMEOUT(breakdown.count(), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(verdict.count(), 1, 30000);
        QVERIFY(test::settle());  // results still queued to the GUI thread arrive
        QCOMPARE(breakdown.count(), 1);
        QCOMPARE(verdict.count(), 1);
    }

  private slots:
    void initTestCase() {
        tokenscope::test::use_test_settings(QStringLiteral("run_analysis_once_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
    }

    void oneCoveragePerOpenedRun() {
        const QString a = test::write_hand_store(dir_, QStringLiteral("a.tokenscope"), "run a");
        const QString b = test::write_hand_store(dir_, QStringLiteral("b.tokenscope"), "run b");
        ui::MainWindow window;
        window.resize(1400, 800);
        window.show();
        const std::uint64_t before = analysis::Coverage::whole_run_builds();
        open_and_settle(window, a);
        QCOMPARE(analysis::Coverage::whole_run_builds() - before, std::uint64_t(1));
        open_and_settle(window, b);
        QCOMPARE(analysis::Coverage::whole_run_builds() - before, std::uint64_t(2));
        // Both views show the one result: the hand run is "mixed" (main_window_test works
        // the numbers out), with transfer at 6000 / 50000 = 12.0 %.
        const QString dock = window.attributionPanel()->verdictText();
        const QString tab = window.breakdownTab()->verdictText();
        QVERIFY2(dock.contains(QStringLiteral("<b>mixed</b>")), qPrintable(dock));
        QVERIFY2(tab.contains(QStringLiteral("<b>mixed</b>")), qPrintable(tab));
        QVERIFY2(dock.contains(QStringLiteral("Transfer share (NVLink + PCIe)</td><td align=right "
                                              "style='white-space:nowrap'>12.0 %")),
                 qPrintable(dock));
        QVERIFY2(tab.contains(QStringLiteral("2 steps")), qPrintable(tab));
    }

    // A file that keeps its attribution (as `import` writes it) is analysed without a
    // coverage: the analyzer reads the record, and the views show what they show above.
    void aKeptAttributionBuildsNoCoverage() {
        const QString path =
            test::write_hand_store(dir_, QStringLiteral("kept.tokenscope"), "kept");
        const std::string file = path.toStdString();
        QCOMPARE(analysis::attribute_stored_runs(file, store::StoreReader(file).run_ids()),
                 std::size_t(1));
        ui::MainWindow window;
        window.resize(1400, 800);
        window.show();
        const std::uint64_t before = analysis::Coverage::whole_run_builds();
        open_and_settle(window, path);
        QCOMPARE(analysis::Coverage::whole_run_builds() - before, std::uint64_t(0));
        const QString tab = window.breakdownTab()->verdictText();
        QVERIFY2(tab.contains(QStringLiteral("<b>mixed</b>")), qPrintable(tab));
        QVERIFY2(tab.contains(QStringLiteral("2 steps")), qPrintable(tab));
        const QString dock = window.attributionPanel()->verdictText();
        QVERIFY2(dock.contains(QStringLiteral("Transfer share (NVLink + PCIe)</td><td align=right "
                                              "style='white-space:nowrap'>12.0 %")),
                 qPrintable(dock));
    }

    // Two files opened to compare, with the Heatmap tab in front and then the Compare
    // tab (the window brings it forward): one coverage and one heatmap per run, not
    // more, also when B becomes the current run afterwards.
    void compareAndHeatmapReadTheSameAnalyses() {
        const QString a = test::write_hand_store(dir_, QStringLiteral("f.tokenscope"), "run f");
        const QString b = test::write_hand_store(dir_, QStringLiteral("g.tokenscope"), "run g");
        ui::MainWindow window;
        window.resize(1400, 800);
        window.show();
        window.tabs()->setCurrentWidget(window.heatmapTab());
        const std::uint64_t coverages = analysis::Coverage::whole_run_builds();
        const std::uint64_t heatmaps = analysis::heatmap_builds();
        QSignalSpy diff(window.compareTab(), &ui::CompareTab::diffReady);
        QSignalSpy heatmap(window.heatmapTab(), &ui::HeatmapTab::heatmapReady);
        QSignalSpy verdict(window.attributionPanel(), &ui::AttributionPanel::verdictReady);
        window.openFiles({a, b}, true);
        QTRY_COMPARE_WITH_TIMEOUT(diff.count(), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(heatmap.count(), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(verdict.count(), 1, 30000);
        QVERIFY(test::settle());  // results still queued to the GUI thread arrive
        QCOMPARE(window.tabs()->currentWidget(), window.compareTab());
        QCOMPARE(window.compareTab()->runA().path, a);
        QCOMPARE(window.compareTab()->runB().path, b);
        // Both tabs fit their choices to the same kind of run: one spec, one heatmap.
        QVERIFY(window.heatmapTab()->controls()->spec() == window.compareTab()->controls()->spec());
        QCOMPARE(analysis::Coverage::whole_run_builds() - coverages, std::uint64_t(2));
        QCOMPARE(analysis::heatmap_builds() - heatmaps, std::uint64_t(2));
        // The diff's categories come from those analyses: the hand run's H2D copy
        // [14000, 20000) is pcie in both, and its two steps cover [0, 50000).
        const auto& categories = window.compareTab()->diff()->categories;
        const auto& pcie = categories[std::size_t(analysis::Category::Pcie)];
        QCOMPARE(pcie.a_ns, std::int64_t(6000));
        QCOMPARE(pcie.b_ns, std::int64_t(6000));
        std::int64_t total_a = 0, total_b = 0;
        for (const auto& c : categories) total_a += c.a_ns, total_b += c.b_ns;
        QCOMPARE(total_a, std::int64_t(50000));
        QCOMPARE(total_b, std::int64_t(50000));
        QVERIFY(window.compareTab()->diff()->heatmap.has_value());

        // B selected and the Heatmap tab in front: B's analysis and heatmap are Compare's.
        window.tabs()->setCurrentWidget(window.heatmapTab());
        window.runListView()->setCurrentIndex(window.runList()->index(1));
        QCOMPARE(window.analyzer()->run().path, b);
        QTRY_COMPARE_WITH_TIMEOUT(verdict.count(), 2, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(heatmap.count(), 2, 30000);
        QVERIFY(test::settle());  // results still queued to the GUI thread arrive
        QCOMPARE(analysis::Coverage::whole_run_builds() - coverages, std::uint64_t(2));
        QCOMPARE(analysis::heatmap_builds() - heatmaps, std::uint64_t(2));
        QVERIFY(window.breakdownTab()->ready());
        QCOMPARE(diff.count(), 1);  // Compare still shows A and B, unchanged
    }

    // Going back to a run analyses it again (one analysis is kept, the current run's),
    // still once for both views.
    void selectingAnotherRunAnalysesItOnce() {
        const QString a = test::write_hand_store(dir_, QStringLiteral("c.tokenscope"), "run c");
        const QString b = test::write_hand_store(dir_, QStringLiteral("d.tokenscope"), "run d");
        ui::MainWindow window;
        open_and_settle(window, a);
        open_and_settle(window, b);
        const std::uint64_t before = analysis::Coverage::whole_run_builds();
        QSignalSpy verdict(window.attributionPanel(), &ui::AttributionPanel::verdictReady);
        window.runListView()->setCurrentIndex(window.runList()->index(0));
        QTRY_COMPARE_WITH_TIMEOUT(verdict.count(), 1, 30000);
        QVERIFY(test::settle());  // results still queued to the GUI thread arrive
        QCOMPARE(analysis::Coverage::whole_run_builds() - before, std::uint64_t(1));
        QVERIFY(window.breakdownTab()->ready());
    }

    // Cancel stops the shared analysis; both views say so, and no verdict arrives. The
    // cancel comes from a slot of runsOpened, still inside the open: the analysis just
    // started cannot have been delivered yet.
    void cancellingStopsTheSharedAnalysis() {
        const QString a = test::write_hand_store(dir_, QStringLiteral("e.tokenscope"), "run e");
        ui::MainWindow window;
        QSignalSpy verdict(window.attributionPanel(), &ui::AttributionPanel::verdictReady);
        QSignalSpy breakdown(window.breakdownTab(), &ui::BreakdownTab::breakdownReady);
        bool busy = false;
        trace::StopToken token;
        connect(&window, &ui::MainWindow::runsOpened, this, [&] {
            busy = window.analyzer()->busy();
            token = window.analyzer()->query()->token();
            window.breakdownTab()->cancelQuery();
        });
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({a});
        QTRY_COMPARE(opened.count(), 1);
        QVERIFY(busy);
        QVERIFY(token.stop_requested());
        QVERIFY(!window.analyzer()->busy());
        QVERIFY2(window.breakdownTab()->verdictText().contains(QStringLiteral("cancelled")),
                 qPrintable(window.breakdownTab()->verdictText()));
        QVERIFY2(window.attributionPanel()->verdictText().contains(QStringLiteral("cancelled")),
                 qPrintable(window.attributionPanel()->verdictText()));
        QVERIFY(test::settle());  // results still queued to the GUI thread arrive
        QCOMPARE(verdict.count(), 0);
        QCOMPARE(breakdown.count(), 0);
    }

    // The dock's selection is attributed on a BackgroundQuery: a newer selection stops
    // the one before, and only the newer one is shown.
    void aNewSelectionStopsTheOneBefore() {
        ui::AttributionPanel panel;
        panel.setRun(test::open_run(test::hand_run("selection"), "/x/s.tokenscope"));
        QSignalSpy ready(&panel, &ui::AttributionPanel::attributionReady);
        panel.selectRange(0, 25000);
        const trace::StopToken first = panel.rangeQuery()->token();
        QVERIFY(panel.rangeQuery()->busy());
        // [14000, 20000): only the H2D copy, so all of it is pcie.
        panel.selectRange(14000, 20000);
        QVERIFY(first.stop_requested());
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QVERIFY(test::settle());
        QCOMPARE(ready.count(), 1);
        QCOMPARE(panel.attribution().start_ns, std::int64_t(14000));
        QCOMPARE(panel.attribution().assigned[std::size_t(analysis::Category::Pcie)],
                 std::int64_t(6000));
        // Clearing the selection stops its query too.
        panel.selectRange(0, 25000);
        const trace::StopToken third = panel.rangeQuery()->token();
        panel.clearSelection();
        QVERIFY(third.stop_requested());
        QVERIFY(!panel.rangeQuery()->busy());
    }
};

QTEST_MAIN(RunAnalysisOnceTest)
#include "run_analysis_once_test.moc"
