// Long queries in the Heatmap, Breakdown and Compare tabs: each reports busy
// true then false, the main window shows a busy bar with the task and a Cancel
// button meanwhile, a cancelled or superseded query is asked to stop through its
// StopToken, and its result is dropped unseen.
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "../hand_run.h"
#include "../settle.h"
#include "analysis/heatmap/heatmap.h"
#include "support/test_settings.h"
#include "trace/stop_token.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/compare/compare_tab.h"
#include "ui/heatmap/heatmap_controls.h"
#include "ui/heatmap/heatmap_tab.h"
#include "ui/shared/background_query.h"
#include "ui/shared/run_analyzer.h"
#include "ui/window/main_window.h"

using namespace tokenscope;

namespace {

// What a spinning work saw; shared, so a failed test cannot leave the pool thread
// writing to a dead stack frame.
struct Spin {
    std::atomic<bool> started{false};
    std::atomic<bool> observed_stop{false};
};

// Work that spins until its token is stopped (60 s at most, so a broken stop fails
// the test instead of hanging it), then gives up the way the analysis does.
auto spinning_work(std::shared_ptr<Spin> spin) {
    return [spin](const trace::StopToken& stop) -> int {
        spin->started = true;
        const QDeadlineTimer deadline(60000);
        while (!stop.stop_requested() && !deadline.hasExpired()) QThread::yieldCurrentThread();
        spin->observed_stop = stop.stop_requested();
        stop.throw_if_stopped();
        return -1;
    };
}

const QString kHeatmapTask = QStringLiteral("Computing the heatmap…");

// Phase rows, step latency, 10 us windows: one sample per step.
analysis::HeatmapSpec phase_spec() {
    analysis::HeatmapSpec spec;
    spec.rows = analysis::HeatmapRows::Phase;
    spec.metric = analysis::HeatmapMetric::StepLatency;
    spec.window = analysis::WindowKind::Time;
    spec.window_size = 10000;
    return spec;
}

// The hand run with five steps instead of two, so its heatmap holds 5 samples.
trace::RunData five_step_run() {
    trace::RunData run = test::hand_run("five steps");
    run.steps = {{1, 0, trace::Phase::Prefill, 0, 5000, 0},
                 {1, 1, trace::Phase::Decode, 5000, 7000, 0},
                 {1, 2, trace::Phase::Decode, 7000, 9000, 0},
                 {1, 3, trace::Phase::Decode, 25000, 28000, 0},
                 {1, 4, trace::Phase::Decode, 28000, 32000, 0}};
    run.requests = {{1, 0, 5000, 32000, 16, 5, false}};
    return run;
}

// Two million kernels on the GPU stream, so the kernel heatmap takes long
// enough that Cancel lands while it is in flight.
trace::RunData big_run(std::size_t kernels) {
    trace::RunData run = test::hand_run("big run");
    std::vector<std::uint32_t> names;
    for (int i = 0; i < 16; ++i) names.push_back(run.strings.intern("kernel_" + std::to_string(i)));
    run.activities.reserve(run.activities.size() + kernels);
    for (std::size_t i = 0; i < kernels; ++i) {
        trace::Activity a;
        a.lane = 1;
        a.kind = trace::ActivityKind::Kernel;
        a.start_ns = 100000 + static_cast<std::int64_t>(i) * 1000;
        a.end_ns = a.start_ns + 200 + static_cast<std::int64_t>(i % 7) * 100;
        a.name = names[i % names.size()];
        run.activities.push_back(a);
    }
    return run;
}

analysis::HeatmapSpec kernel_spec() {
    analysis::HeatmapSpec spec;
    spec.rows = analysis::HeatmapRows::Kernel;
    spec.metric = analysis::HeatmapMetric::KernelDuration;
    spec.window = analysis::WindowKind::Time;
    spec.window_size = 1'000'000;
    return spec;
}

std::int64_t samples(const analysis::Heatmap& map) {
    std::int64_t n = 0;
    for (const auto& c : map.cells) n += c.count;
    return n;
}

}  // namespace

class BackgroundQueryTest : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        tokenscope::test::use_test_settings(QStringLiteral("background_query_test"));
        QSettings().clear();
    }

    void generationsDecideWhichResultCounts() {
        ui::BackgroundQuery q;
        QSignalSpy busy(&q, &ui::BackgroundQuery::busyChanged);
        QSignalSpy discarded(&q, &ui::BackgroundQuery::discarded);
        QSignalSpy cancelled(&q, &ui::BackgroundQuery::cancelled);
        const quint64 first = q.start(QStringLiteral("a"));
        const quint64 second = q.start(QStringLiteral("b"));
        QVERIFY(second != first);
        QVERIFY(q.busy());
        QCOMPARE(q.what(), QStringLiteral("b"));
        QVERIFY(!q.finish(first));  // superseded
        QCOMPARE(discarded.count(), 1);
        QCOMPARE(discarded.at(0).at(0).toULongLong(), first);
        QVERIFY(q.busy());
        QVERIFY(q.finish(second));
        QVERIFY(!q.busy());
        QCOMPARE(q.what(), QString());
        // Edges: busy "a", new text "b", idle.
        QCOMPARE(busy.count(), 3);
        QCOMPARE(busy.at(0), (QList<QVariant>{true, QStringLiteral("a")}));
        QCOMPARE(busy.at(1), (QList<QVariant>{true, QStringLiteral("b")}));
        QCOMPARE(busy.at(2).at(0).toBool(), false);

        const quint64 third = q.start(QStringLiteral("c"));
        QVERIFY(q.cancel());
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!q.busy());
        QVERIFY(!q.finish(third));  // arrives after Cancel: dropped
        QCOMPARE(discarded.count(), 2);
        QVERIFY(!q.cancel());  // nothing left to cancel
        QCOMPARE(cancelled.count(), 1);
        q.clear();  // idle already: no edge
        QCOMPARE(busy.count(), 5);
    }

    void runDeliversOnlyTheNewestResult() {
        ui::BackgroundQuery q;
        QSignalSpy discarded(&q, &ui::BackgroundQuery::discarded);
        QList<int> shown;
        q.run(
            QStringLiteral("old"), [] { return 1; }, [&](int v) { shown << v; });
        q.run(
            QStringLiteral("new"), [] { return 2; }, [&](int v) { shown << v; });
        QTRY_VERIFY(!q.busy());
        QTRY_COMPARE(discarded.count(), 1);
        QCOMPARE(shown, QList<int>{2});
    }

    void cancelStopsTheRunningWork() {
        ui::BackgroundQuery q;
        QSignalSpy discarded(&q, &ui::BackgroundQuery::discarded);
        auto spin = std::make_shared<Spin>();
        QList<int> shown;
        q.run(QStringLiteral("spin"), spinning_work(spin), [&](int v) { shown << v; });
        const trace::StopToken token = q.token();
        QTRY_VERIFY(spin->started);
        QVERIFY(!token.stop_requested());
        QVERIFY(q.cancel());
        QVERIFY(token.stop_requested());
        QTRY_VERIFY_WITH_TIMEOUT(spin->observed_stop, 30000);
        // It gave up with Cancelled: dropped as stale, never shown.
        QTRY_COMPARE_WITH_TIMEOUT(discarded.count(), 1, 30000);
        QVERIFY(shown.isEmpty());
        QVERIFY(!q.busy());
    }

    void aNewerQueryStopsTheOlderOne() {
        ui::BackgroundQuery q;
        QSignalSpy discarded(&q, &ui::BackgroundQuery::discarded);
        auto spin = std::make_shared<Spin>();
        QList<int> shown;
        q.run(QStringLiteral("old"), spinning_work(spin), [&](int v) { shown << v; });
        QTRY_VERIFY(spin->started);
        q.run(
            QStringLiteral("new"), [](const trace::StopToken&) { return 2; },
            [&](int v) { shown << v; });
        QTRY_VERIFY_WITH_TIMEOUT(spin->observed_stop, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(discarded.count(), 1, 30000);
        QTRY_VERIFY(!q.busy());
        QCOMPARE(shown, QList<int>{2});
        // clear() stops the live query too.
        auto other = std::make_shared<Spin>();
        q.run(QStringLiteral("cleared"), spinning_work(other), [&](int v) { shown << v; });
        QTRY_VERIFY(other->started);
        q.clear();
        QTRY_VERIFY_WITH_TIMEOUT(other->observed_stop, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(discarded.count(), 2, 30000);
        QCOMPARE(shown, QList<int>{2});
    }

    // Work that stops by itself (Cancelled while still the live query) shows nothing
    // and leaves the query idle, as a cancel would.
    void workThatGivesUpShowsNothing() {
        ui::BackgroundQuery q;
        QSignalSpy cancelled(&q, &ui::BackgroundQuery::cancelled);
        QList<int> shown;
        q.run(
            QStringLiteral("gives up"), []() -> int { throw trace::Cancelled(); },
            [&](int v) { shown << v; });
        QTRY_VERIFY(!q.busy());
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(shown.isEmpty());
    }

    void heatmapTabReportsBusyThenIdle() {
        ui::HeatmapTab tab;
        tab.controls()->setSpec(phase_spec());
        QSignalSpy busy(&tab, &ui::RunTab::busyChanged);
        QSignalSpy ready(&tab, &ui::HeatmapTab::heatmapReady);
        tab.setRun(test::open_run(test::hand_run()));
        QVERIFY(tab.queryBusy());
        QCOMPARE(tab.queryText(), kHeatmapTask);
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.at(0), (QList<QVariant>{true, kHeatmapTask}));
        QCOMPARE(busy.at(1).at(0).toBool(), false);
        QVERIFY(!tab.queryBusy());
        QCOMPARE(samples(*tab.heatmap()), std::int64_t(2));  // the hand run's two steps
    }

    void breakdownAndCompareTabsReportBusyThenIdle() {
        const ui::OpenRun a = test::open_run(test::hand_run("A"), QStringLiteral("a"));
        const ui::OpenRun b = test::open_run(five_step_run(), QStringLiteral("b"));
        ui::BreakdownTab breakdown;
        QSignalSpy busy_b(&breakdown, &ui::RunTab::busyChanged);
        QSignalSpy ready_b(&breakdown, &ui::BreakdownTab::breakdownReady);
        breakdown.setRun(a);
        QVERIFY(breakdown.queryBusy());
        QTRY_COMPARE(ready_b.count(), 1);
        QCOMPARE(busy_b.count(), 2);
        QVERIFY(busy_b.at(0).at(0).toBool());
        QVERIFY(!busy_b.at(0).at(1).toString().isEmpty());
        QVERIFY(!busy_b.at(1).at(0).toBool());

        ui::CompareTab compare;
        QSignalSpy busy_c(&compare, &ui::RunTab::busyChanged);
        QSignalSpy ready_c(&compare, &ui::CompareTab::diffReady);
        compare.compare(a, b);
        QVERIFY(compare.queryBusy());
        QTRY_COMPARE(ready_c.count(), 1);
        QCOMPARE(busy_c.count(), 2);
        QVERIFY(busy_c.at(0).at(0).toBool());
        QVERIFY(!busy_c.at(1).at(0).toBool());
    }

    void aNewerRunSupersedesTheOlderQuery() {
        ui::HeatmapTab tab;
        tab.controls()->setSpec(phase_spec());
        QSignalSpy ready(&tab, &ui::HeatmapTab::heatmapReady);
        QSignalSpy discarded(tab.query(), &ui::BackgroundQuery::discarded);
        QSignalSpy busy(&tab, &ui::RunTab::busyChanged);
        tab.setRun(test::open_run(test::hand_run()));
        tab.setRun(test::open_run(five_step_run()));
        QTRY_COMPARE(discarded.count(), 1);
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(samples(*tab.heatmap()), std::int64_t(5));  // the second run's steps
        // One busy stretch for both requests.
        QCOMPARE(busy.count(), 2);
    }

    void cancellingABigHeatmapDropsItsResult() {
        ui::HeatmapTab tab;
        tab.controls()->setSpec(kernel_spec());
        const ui::OpenRun run = test::open_run(big_run(2'000'000));
        QSignalSpy ready(&tab, &ui::HeatmapTab::heatmapReady);
        QSignalSpy failed(&tab, &ui::HeatmapTab::heatmapFailed);
        QSignalSpy discarded(tab.query(), &ui::BackgroundQuery::discarded);
        QSignalSpy busy(&tab, &ui::RunTab::busyChanged);
        QElapsedTimer clock;
        clock.start();
        tab.setRun(run);
        QVERIFY(tab.computing());
        const trace::StopToken token = tab.query()->token();
        QVERIFY(!token.stop_requested());
        tab.cancelQuery();
        QVERIFY(token.stop_requested());  // the analysis stops at its next check
        QVERIFY(!tab.computing());
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
        QVERIFY2(tab.statusText().contains(QStringLiteral("cancelled")),
                 qPrintable(tab.statusText()));
        // The computation stops on the pool (or ends first); either way it is dropped.
        QTRY_COMPARE_WITH_TIMEOUT(discarded.count(), 1, 120000);
        qInfo("kernel heatmap of 2,000,000 kernels: result dropped %lld ms after the request",
              static_cast<long long>(clock.elapsed()));
        QCOMPARE(ready.count(), 0);
        QCOMPARE(failed.count(), 0);
        QVERIFY(!tab.heatmap().has_value());
        QVERIFY(tab.statusText().contains(QStringLiteral("cancelled")));
        QCOMPARE(busy.count(), 2);
        // What was dropped was no empty answer: every kernel is a sample (2,000,000
        // made here plus the hand run's gemm), 17 names, under the top 20.
        clock.restart();
        const analysis::Heatmap direct = analysis::compute_heatmap(*run.data, kernel_spec());
        qInfo("the same heatmap computed directly: %lld ms",
              static_cast<long long>(clock.elapsed()));
        QCOMPARE(samples(direct), std::int64_t(2'000'001));
        QCOMPARE(direct.row_count(), std::size_t(17));
    }

    void breakdownAndCompareCancelsStopTheirQueries() {
        const ui::OpenRun a = test::open_run(big_run(200'000), QStringLiteral("a"));
        const ui::OpenRun b = test::open_run(big_run(200'000), QStringLiteral("b"));
        ui::BreakdownTab breakdown;
        QSignalSpy ready_b(&breakdown, &ui::BreakdownTab::breakdownReady);
        QSignalSpy dropped_b(breakdown.query(), &ui::BackgroundQuery::discarded);
        breakdown.setRun(a);
        const trace::StopToken token_b = breakdown.query()->token();
        breakdown.cancelQuery();
        QVERIFY(token_b.stop_requested());
        QVERIFY(!breakdown.queryBusy());
        QVERIFY2(breakdown.verdictText().contains(QStringLiteral("cancelled")),
                 qPrintable(breakdown.verdictText()));

        // Compare first waits for the analyses and heatmaps of A and B, claimed from its
        // analyzer: the cancel stops all four.
        ui::CompareTab compare;
        QSignalSpy ready_c(&compare, &ui::CompareTab::diffReady);
        compare.compare(a, b);
        QVERIFY(compare.queryBusy());
        std::vector<trace::StopToken> tokens;
        for (const ui::OpenRun* run : {&a, &b}) {
            const trace::RunData* data = run->data.get();
            for (const auto& spec : {std::optional<analysis::HeatmapSpec>{},
                                     std::optional(compare.controls()->spec())}) {
                QVERIFY(compare.analyzer()->pending(data, spec));
                tokens.push_back(compare.analyzer()->queryOf(data, spec)->token());
            }
        }
        compare.cancelQuery();
        for (const trace::StopToken& token : tokens) QVERIFY(token.stop_requested());
        QVERIFY(!compare.queryBusy());
        QTRY_COMPARE_WITH_TIMEOUT(dropped_b.count(), 1, 60000);
        QVERIFY(test::settle());  // the stopped work ended, and what it sent was delivered
        QCOMPARE(ready_b.count(), 0);
        QCOMPARE(ready_c.count(), 0);
        QVERIFY(!compare.diff().has_value());
        QVERIFY(compare.statusText().contains(QStringLiteral("cancelled")));
    }

    void mainWindowShowsTheBusyTabAndCancelsIt() {
        ui::MainWindow window;
        window.heatmapTab()->controls()->setSpec(phase_spec());
        QProgressBar* bar = window.progressBar();
        QVERIFY(bar->isHidden());
        window.heatmapTab()->setRun(test::open_run(test::hand_run()));
        QVERIFY(!bar->isHidden());
        QCOMPARE(bar->maximum(), 0);  // indeterminate
        QVERIFY(window.computing());
        QCOMPARE(window.taskText(), kHeatmapTask);
        QVERIFY(!window.cancelButton()->isHidden() && window.cancelButton()->isEnabled());
        QTRY_VERIFY(bar->isHidden());
        QVERIFY(window.cancelButton()->isHidden());
        QCOMPARE(window.taskText(), QString());
        QVERIFY(window.heatmapTab()->heatmap().has_value());

        // Cancel while computing: the tab drops its query and the bar goes.
        QSignalSpy discarded(window.heatmapTab()->query(), &ui::BackgroundQuery::discarded);
        window.heatmapTab()->setRun(test::open_run(five_step_run()));
        QVERIFY(!bar->isHidden());
        window.cancelButton()->click();
        QVERIFY(!window.computing());
        QVERIFY(bar->isHidden());
        QVERIFY(window.heatmapTab()->statusText().contains(QStringLiteral("cancelled")));
        QTRY_COMPARE(discarded.count(), 1);
        QVERIFY(!window.heatmapTab()->heatmap().has_value());
    }
};

QTEST_MAIN(BackgroundQueryTest)
#include "background_query_test.moc"
