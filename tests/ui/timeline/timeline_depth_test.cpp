// The timeline through the real window on a Python-stack-like run: a CPU thread whose
// ranges nest 12 deep (a vLLM worker's execute_model at the bottom), a GPU stream with a
// late kernel. Deep stacks expand per lane and stay expanded; find moves and zooms the
// view to the match; lane names keep what tells them apart; the axis labels are whole.
#include <QAction>
#include <QFontMetrics>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "store/store_writer.h"
#include "support/test_settings.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_painter.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"

using namespace tokenscope;
using Layout = ui::TimelineLayout;

namespace {

constexpr int kLevels = 12;
const char* const kThread = "thread 801312345 annotations";

// Lane 0: ranges [i*100, 100000 - i*100) for i < 12, "frame_i", the last "execute_model";
// lane 1: kernels "gemm" at 1000 and "late_kernel" at [90000, 90400).
trace::RunData deep_run() {
    trace::RunData run;
    run.info.name = "deep stack";
    run.info.source = trace::Source::Kineto;
    run.info.complete = true;
    run.lanes = {{trace::LaneKind::CpuThread, -1, 1, 801312345, kThread},
                 {trace::LaneKind::GpuStream, 0, 1, 7, "GPU 0 stream 7"}};
    for (int i = 0; i < kLevels; ++i) {
        trace::Activity a;
        a.lane = 0;
        a.kind = trace::ActivityKind::Range;
        a.start_ns = i * 100;
        a.end_ns = 100000 - i * 100;
        const std::string name = i + 1 == kLevels ? "execute_model" : "frame_" + std::to_string(i);
        a.name = run.strings.intern(name);
        run.activities.push_back(a);
    }
    for (auto [name, start, end] :
         {std::tuple{"gemm", 1000, 5000}, {"late_kernel", 90000, 90400}}) {
        trace::Activity k;
        k.lane = 1;
        k.kind = trace::ActivityKind::Kernel;
        k.start_ns = start;
        k.end_ns = end;
        k.name = run.strings.intern(name);
        run.activities.push_back(k);
    }
    run.steps = {{1, 0, trace::Phase::Decode, 0, 100000, 0}};
    return run;
}

std::size_t activity_named(const trace::RunData& run, std::string_view name) {
    for (std::size_t i = 0; i < run.activities.size(); ++i)
        if (run.name_of(run.activities[i]) == name) return i;
    return static_cast<std::size_t>(-1);
}

QAction* find_action(QMenu* menu, const QString& starts) {
    for (QAction* a : menu->actions())
        if (a->text().remove(QLatin1Char('&')).startsWith(starts)) return a;
    return nullptr;
}

}  // namespace

class TimelineDepthTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString file_;

    void open(ui::MainWindow& window) {
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({file_});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
    }
    static const Layout::Row& lane_row(const ui::TimelineView& view, int lane) {
        return *view.scene().layout->row_of_lane(lane);
    }

  private slots:
    void initTestCase() {
        test::use_test_settings(QStringLiteral("timeline_depth_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        file_ = dir_.filePath(QStringLiteral("deep.tokenscope"));
        store::StoreWriter(file_.toStdString()).write_run(deep_run());
    }

    // 12 levels, 6 shown: the lane's menu shows all 12, a hit test reaches the deepest,
    // and the next window opening the file shows all 12 again; the default comes back.
    void aTwelveDeepStackExpands() {
        {
            ui::MainWindow window;
            open(window);
            ui::TimelineView* view = window.timelineTab()->view();
            QCOMPARE(lane_row(*view, 0).levels, kLevels);
            QCOMPARE(lane_row(*view, 0).depth_rows, Layout::kMaxDepthRows);
            std::unique_ptr<QMenu> menu(view->laneMenu(0));
            QVERIFY(menu != nullptr);
            QAction* all = find_action(menu.get(), QStringLiteral("Show all 12 levels"));
            QVERIFY(all != nullptr && all->isEnabled());
            all->trigger();
            QCOMPARE(lane_row(*view, 0).depth_rows, kLevels);
            // The deepest level has a row of its own: hovering it finds execute_model.
            const auto& run = *view->run().data;
            const std::size_t deepest = activity_named(run, "execute_model");
            const int y = Layout::kAxisHeight + lane_row(*view, 0).y - view->scene().scroll_y +
                          (kLevels - 1) * Layout::kSpanHeight + Layout::kSpanHeight / 2;
            const int x = Layout::kLabelWidth + view->plotWidth() / 2;
            QCOMPARE(view->activityAt(QPoint(x, y)), deepest);
        }
        ui::MainWindow again;
        open(again);
        ui::TimelineView* view = again.timelineTab()->view();
        QCOMPARE(lane_row(*view, 0).depth_rows, kLevels);  // remembered by the lane's name
        std::unique_ptr<QMenu> menu(view->laneMenu(0));
        find_action(menu.get(), QStringLiteral("Show up to 6 levels"))->trigger();
        QCOMPARE(lane_row(*view, 0).depth_rows, Layout::kMaxDepthRows);
        // A click on the "N more levels" under the lane's name shows them all as well.
        QVERIFY(ui::TimelinePainter::more_levels_text(lane_row(*view, 0))
                    .contains(QStringLiteral("6 more levels")));
        const int label_y = Layout::kAxisHeight + lane_row(*view, 0).y - view->scene().scroll_y +
                            Layout::kSpanHeight + Layout::kSpanHeight / 2;
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, QPoint(40, label_y));
        QCOMPARE(lane_row(*view, 0).depth_rows, kLevels);
        view->setDepthLimit(0, 0);
    }

    // Typing in Find moves the view to the match, zoomed to it and highlighted, its
    // level shown even past the lane's limit; Enter goes on to the next match.
    void findMovesAndZoomsToTheMatch() {
        ui::MainWindow window;
        open(window);
        ui::TimelineView* view = window.timelineTab()->view();
        QCOMPARE(lane_row(*view, 0).depth_rows, Layout::kMaxDepthRows);
        const auto& run = *view->run().data;
        view->showRange(0, 200);  // far from the late kernel
        window.timelineTab()->searchBox()->setText(QStringLiteral("late_kern"));
        const std::size_t late = activity_named(run, "late_kernel");
        QCOMPARE(view->scene().found, late);
        const auto& k = run.activities[late];
        const double x0 = view->viewport().x_of(k.start_ns);
        const double x1 = view->viewport().x_of(k.end_ns);
        QVERIFY2(
            x0 >= 0 && x1 <= view->plotWidth() && x1 - x0 >= view->plotWidth() / 4.0,
            qPrintable(
                QStringLiteral("match at %1..%2 of %3 px").arg(x0).arg(x1).arg(view->plotWidth())));
        // The deepest frame: its level is shown for the match, not remembered.
        window.timelineTab()->searchBox()->setText(QStringLiteral("execute_model"));
        const std::size_t deepest = activity_named(run, "execute_model");
        QCOMPARE(view->scene().found, deepest);
        QCOMPARE(lane_row(*view, 0).depth_rows, kLevels);
        QVERIFY(!QSettings().contains(QStringLiteral("timeline/levels/1/") +
                                      QString::fromUtf8(kThread)));
        // A match wider than the view: zoomed out to show all of it.
        window.timelineTab()->searchBox()->setText(QStringLiteral("frame_0"));
        const auto& outer = run.activities[activity_named(run, "frame_0")];
        QVERIFY(view->viewport().x_of(outer.start_ns) >= 0);
        QVERIFY(view->viewport().x_of(outer.end_ns) <= view->plotWidth());
        window.timelineTab()->searchBox()->clear();
        QCOMPARE(view->scene().found, ui::TimelineScene::kNone);
    }

    // Lane names are cut on the side that keeps them apart, whole in the tooltip.
    void laneNamesKeepWhatTellsThemApart() {
        const QFontMetrics fm(QFont{});
        const auto elide = [&](const char* label, const char* room) {
            return ui::TimelinePainter::elide_lane_label(
                QString::fromUtf8(label), fm, fm.horizontalAdvance(QString::fromUtf8(room)));
        };
        // The other words shorten; the id and "annotations" stay whole.
        const QString thread =
            elide("thread 1102 (pt_main_thread) annotations", "thread 1102 (pt_ma) annotations");
        QVERIFY2(thread.contains(QStringLiteral(" 1102 (")) &&
                     thread.endsWith(QStringLiteral(") annotations")) &&
                     thread.contains(QChar(0x2026)),
                 qPrintable(thread));
        const QString stream = elide("GPU 0 stream 7 annotations", "GPU 0 stre 7 annotations");
        QVERIFY2(stream.startsWith(QStringLiteral("GPU 0 ")) &&
                     stream.endsWith(QStringLiteral(" 7 annotations")),
                 qPrintable(stream));
        const QString spans = elide("Spans / PyTorch Profiler (Trace)", "Sp / Py Pr (Trace)");
        QVERIFY2(spans.endsWith(QStringLiteral("(Trace)")), qPrintable(spans));
        // Too narrow for that: cut on the left, the end kept.
        const QString narrow = elide(kThread, "801312345 annotations");
        QVERIFY2(narrow.endsWith(QStringLiteral("annotations")), qPrintable(narrow));
        ui::MainWindow window;
        open(window);
        QVERIFY(
            window.timelineTab()->view()->laneToolTip(0).startsWith(QString::fromUtf8(kThread)));
    }

    // Every label of the time axis is whole: none is cut at the right edge.
    void axisLabelsAreWhole() {
        ui::MainWindow window;
        open(window);
        ui::TimelineView* view = window.timelineTab()->view();
        const QFontMetrics fm(view->font());
        for (int width : {300, 577, 833, 1200}) {
            view->resize(width + Layout::kLabelWidth, 400);
            view->fitAll();
            ui::TimelinePainter painter(view->scene(), nullptr, view->palette());
            int labelled = 0;
            for (const auto& tick : painter.axis_ticks(view->plotWidth(), fm)) {
                if (tick.label.isEmpty()) continue;
                ++labelled;
                QVERIFY2(tick.x + 3 + fm.horizontalAdvance(tick.label) <= view->plotWidth(),
                         qPrintable(tick.label));
            }
            QVERIFY(labelled >= 2);
        }
    }
};

QTEST_MAIN(TimelineDepthTest)
#include "timeline_depth_test.moc"
