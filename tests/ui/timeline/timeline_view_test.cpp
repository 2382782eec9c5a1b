// The timeline widget on a hand-built run: geometry, zoom, hover links, selection, painting.
#include <QImage>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include "../hand_run.h"
#include "ui/plots/category_colors.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_view.h"

using namespace tokenscope;
using ui::TimelineLayout;

class TimelineViewTest : public QObject {
    Q_OBJECT

    // Widget 1000 px wide: plot = 1000 - 170 = 830 px. The run spans [0, 50000) ns; fit adds
    // 2% (1000 ns) each side, so [-1000, 51000) over 830 px.
    static constexpr double kFitNsPerPx = 52000.0 / 830.0;
    ui::OpenRun run_ = test::open_run(test::hand_run());

    void setup(ui::TimelineView& view) {
        view.resize(1000, 400);
        view.setRun(run_);
    }
    // Widget x of time t after the fit.
    static int x_at(double t) {
        return TimelineLayout::kLabelWidth + static_cast<int>((t + 1000.0) / kFitNsPerPx);
    }

  private slots:
    void viewportZoomKeepsAnchor() {
        ui::TimelineViewport vp;
        vp.fit(0, 1000, 100);
        QCOMPARE(vp.ns_per_px(), 10.0);
        vp.zoom_at(25, 2.0);
        QCOMPARE(vp.ns_per_px(), 5.0);
        QCOMPARE(vp.time_at(25), 250.0);
        QCOMPARE(vp.time_at(0), 125.0);
        vp.pan_px(10);  // drag right by 10 px shows 50 ns earlier
        QCOMPARE(vp.time_at(0), 75.0);
    }

    void laneRowsFollowTheRun() {
        ui::TimelineView view;
        setup(view);
        QCOMPARE(view.laneRowCount(), 4);
        QCOMPARE(view.viewport().ns_per_px(), kFitNsPerPx);
        QCOMPARE(view.viewport().time_at(0), -1000.0);
    }

    void wheelZoomKeepsTimeUnderCursor() {
        ui::TimelineView view;
        setup(view);
        const QPointF pos(470, 100);  // plot x 300
        const double before = view.viewport().time_at(300);
        QWheelEvent wheel(pos, view.mapToGlobal(pos), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(&view, &wheel);
        QCOMPARE(view.viewport().ns_per_px(), kFitNsPerPx / 1.25);
        QVERIFY(std::abs(view.viewport().time_at(300) - before) < 1e-6);
        view.zoomAt(123, 4.0);
        QVERIFY(std::abs(view.viewport().ns_per_px() - kFitNsPerPx / 5.0) < 1e-9);
    }

    void keyboardZoomPanAndHome() {
        ui::TimelineView view;
        setup(view);
        QTest::keyClick(&view, Qt::Key_Plus);
        QCOMPARE(view.viewport().ns_per_px(), kFitNsPerPx / 2.0);
        QTest::keyClick(&view, Qt::Key_S);
        QCOMPARE(view.viewport().ns_per_px(), kFitNsPerPx);
        const double left = view.viewport().time_at(0);
        QTest::keyClick(&view, Qt::Key_D);  // 10% of 830 px to the right
        QVERIFY(std::abs(view.viewport().time_at(0) - (left + 83.0 * kFitNsPerPx)) < 1e-6);
        QTest::keyClick(&view, Qt::Key_Home);
        QCOMPARE(view.viewport().time_at(0), -1000.0);
    }

    void hoverLinksKernelAndApiCall() {
        ui::TimelineView view;
        setup(view);
        // GPU stream row: axis 22 + steps row 20 + CPU row (2 nesting rows) 36 = y 78.
        view.hoverAt(QPoint(x_at(7000), 22 + 20 + 36 + 8));
        const auto& acts = run_.data->activities;
        QVERIFY(view.scene().hovered < acts.size());
        QCOMPARE(run_.data->name_of(acts[view.scene().hovered]), std::string_view("gemm_bf16"));
        QVERIFY(view.scene().linked < acts.size());
        QCOMPARE(run_.data->name_of(acts[view.scene().linked]),
                 std::string_view("cudaLaunchKernel"));
        // The API call sits in the second nesting row of the CPU lane, inside "decode step".
        view.hoverAt(QPoint(x_at(1250), 22 + 20 + 16 + 8));
        QCOMPARE(run_.data->name_of(acts[view.scene().hovered]),
                 std::string_view("cudaLaunchKernel"));
        QCOMPARE(run_.data->name_of(acts[view.scene().linked]), std::string_view("gemm_bf16"));
        QVERIFY(view.describe(view.scene().hovered).contains(QStringLiteral("cudaLaunchKernel")));
    }

    void rightDragSelectsRange() {
        ui::TimelineView view;
        setup(view);
        QSignalSpy spy(&view, &ui::TimelineView::rangeSelected);
        QTest::mousePress(&view, Qt::RightButton, {}, QPoint(220, 100));
        QTest::mouseMove(&view, QPoint(400, 100));
        QTest::mouseRelease(&view, Qt::RightButton, {}, QPoint(400, 100));
        QCOMPARE(spy.count(), 1);
        const auto t0 = spy[0][0].toLongLong();
        const auto t1 = spy[0][1].toLongLong();
        QVERIFY(std::abs(t0 - (-1000.0 + 50 * kFitNsPerPx)) <= 1.0);
        QVERIFY(std::abs(t1 - (-1000.0 + 230 * kFitNsPerPx)) <= 1.0);
    }

    // An engine iteration framed by a 10 us marker whose GPU work ran on to 50 us: the
    // step track shows the marker's part and the GPU part apart, and a click says so.
    void iterationWindowShowsItsMarker() {
        trace::RunData run = test::hand_run();
        trace::Step it{0, 3, trace::Phase::Iteration, 0, 50000, 0};
        it.batch = {0, 0, 8, 8};
        it.marker_end_ns = 10000;
        run.steps = {it};
        run.requests.clear();
        ui::OpenRun open = test::open_run(std::move(run));
        ui::TimelineView view;
        view.resize(1000, 400);
        view.setRun(open);
        QSignalSpy details(&view, &ui::TimelineView::detailsChanged);
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(x_at(5000), 22 + 8));
        QCOMPARE(details.count(), 1);
        const QString text = details[0][0].toString();
        QVERIFY2(text.contains(QStringLiteral("CPU marker")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("decode 8 req")), qPrintable(text));
        QImage image(view.size(), QImage::Format_ARGB32);
        view.render(&image);
        // The marker's part and the GPU part of the window are drawn in different fills.
        QVERIFY(image.pixel(x_at(5000), 22 + 3) != image.pixel(x_at(30000), 22 + 3));
    }

    void paintsIntoAnImage() {
        ui::TimelineView view;
        setup(view);
        QImage image(view.size(), QImage::Format_ARGB32);
        image.fill(Qt::black);
        view.render(&image);
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2) colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 5, qPrintable(QString::number(colours.size())));
        // The kernel is compute-bound, so its fill is the gpu_compute colour: top rows of
        // the span at t = 7000 ns (its label is drawn further left and centred vertically).
        const QColor expected = ui::plots::CategoryColors::color(analysis::Category::GpuCompute);
        QCOMPARE(QColor(image.pixel(x_at(7000), 22 + 56 + 3)), expected);
        // The H2D copy on the copy engine row (y 76) takes the PCIe colour.
        QCOMPARE(QColor(image.pixel(x_at(17000), 22 + 76 + 3)),
                 ui::plots::CategoryColors::copy_color(trace::CopyKind::H2D));
    }
};

QTEST_MAIN(TimelineViewTest)
#include "timeline_view_test.moc"
