// The timeline hover names a kernel's launch configuration when the run has it.
#include <QTest>
#include <memory>

#include "ui/shared/open_run.h"
#include "ui/timeline/activity_tooltip.h"
#include "ui/timeline/timeline_index.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/run_loader.h"

using namespace tokenscope;

namespace {

// Lanes: 0 CPU thread, 1 GPU stream, 2 copy engine. cudaLaunchKernel [1000, 1500) and
// the kernel gemv [2000, 12000) share correlation 1; an H2D copy [14000, 20000) has 2.
// Self-contained rather than hand_run.h, so it does not follow that run's changes.
trace::RunData launch_run(bool with_launches) {
    trace::RunData run;
    run.info.name = "launch run";
    run.info.complete = true;
    run.lanes = {{trace::LaneKind::CpuThread, -1, 100, 101, "main thread"},
                 {trace::LaneKind::GpuStream, 0, 100, 7, "stream 7"},
                 {trace::LaneKind::CopyEngine, 0, 100, 0, "copy engine 0"}};
    auto add = [&](std::uint16_t lane, trace::ActivityKind kind, const char* name,
                   std::int64_t start, std::int64_t end, std::uint32_t corr) {
        trace::Activity a;
        a.lane = lane, a.kind = kind, a.start_ns = start, a.end_ns = end, a.correlation = corr;
        a.name = run.strings.intern(name);
        if (kind == trace::ActivityKind::Memcpy) a.copy = trace::CopyKind::H2D;
        run.activities.push_back(a);
    };
    add(0, trace::ActivityKind::Api, "cudaLaunchKernel", 1000, 1500, 1);
    add(1, trace::ActivityKind::Kernel, "gemv", 2000, 12000, 1);
    add(2, trace::ActivityKind::Memcpy, "memcpy HtoD", 14000, 20000, 2);
    // Unsorted, and one keyed to the copy's correlation: it must never show on the copy.
    if (with_launches)
        run.launches = {{2, {9, 9, 9}, {9, 9, 9}, 9, 9}, {1, {132, 2, 1}, {256, 1, 1}, 50176, 64}};
    return run;
}

ui::OpenRun open(trace::RunData run) {
    ui::RunLoader::normalize(run);
    auto data = std::make_shared<const trace::RunData>(std::move(run));
    return ui::OpenRun{QStringLiteral("memory"), data,
                       std::make_shared<const ui::TimelineIndex>(*data)};
}

// Hovers down the column of time t until the activity named `name` is under the mouse,
// and returns the tooltip text the view shows for it (empty when never hit).
QString hover_text(ui::TimelineView& view, double t, std::string_view name) {
    const auto& run = *view.run().data;
    const int x = ui::TimelineLayout::kLabelWidth +
                  static_cast<int>(view.viewport().x_of(static_cast<std::int64_t>(t)));
    for (int y = 0; y < view.height(); ++y) {
        view.hoverAt(QPoint(x, y));
        const std::size_t i = view.scene().hovered;
        if (i < run.activities.size() && run.name_of(run.activities[i]) == name)
            return view.describe(i);
    }
    return {};
}

}  // namespace

class TimelineLaunchTooltipTest : public QObject {
    Q_OBJECT

    static void show(ui::TimelineView& view, bool with_launches) {
        view.resize(1000, 400);
        view.setRun(open(launch_run(with_launches)));
    }

  private slots:
    void formatNamesEveryField() {
        const trace::KernelLaunch l{7, {4, 106, 1}, {128, 1, 1}, 2048, 30};
        QCOMPARE(ui::ActivityTooltip::launchText(l),
                 QString::fromUtf8("grid (4, 106, 1) \u00b7 block (128, 1, 1) \u00b7 30 regs "
                                   "\u00b7 2048 B shared"));
    }

    void kernelHoverShowsItsLaunch() {
        ui::TimelineView view;
        show(view, true);
        const QString text = hover_text(view, 7000, "gemv");
        QVERIFY2(text.contains(QStringLiteral("gemv")), qPrintable(text));
        QVERIFY2(text.contains(QString::fromUtf8("grid (132, 2, 1) \u00b7 block (256, 1, 1) "
                                                 "\u00b7 64 regs \u00b7 50176 B shared")),
                 qPrintable(text));
    }

    void otherActivitiesShowNoLaunch() {
        ui::TimelineView view;
        show(view, true);
        // The launching API call shares the kernel's correlation; the copy has its own.
        const QString api = hover_text(view, 1250, "cudaLaunchKernel");
        QVERIFY2(api.contains(QStringLiteral("correlation 1")), qPrintable(api));
        QVERIFY2(!api.contains(QStringLiteral("grid")), qPrintable(api));
        const QString copy = hover_text(view, 17000, "memcpy HtoD");
        QVERIFY2(copy.contains(QStringLiteral("correlation 2")), qPrintable(copy));
        QVERIFY2(!copy.contains(QStringLiteral("grid")), qPrintable(copy));
    }

    void kernelWithoutLaunchShowsNothingExtra() {
        ui::TimelineView view;
        show(view, false);
        const QString text = hover_text(view, 7000, "gemv");
        QVERIFY2(text.contains(QStringLiteral("correlation 1")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("grid")));
        QVERIFY(!text.contains(QStringLiteral("regs")));
    }
};

QTEST_MAIN(TimelineLaunchTooltipTest)
#include "timeline_launch_tooltip_test.moc"
