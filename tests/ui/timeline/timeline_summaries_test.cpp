// The timeline on a run large enough to paint from its stored summaries (DESIGN.md
// section 17): zoomed out it paints the summaries' bins, read off the GUI thread into a
// bounded cache, not the activities; zoomed in it paints, and hovers, the real ones.
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "../hand_run.h"
#include "analysis/timeline/summary_lod.h"
#include "store/store_writer.h"
#include "ui/timeline/summary_tiles.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/run_loader.h"

using namespace tokenscope;

namespace {

constexpr int kKernels = 200'000;

// One GPU stream: kernel k starts at k * 2 us and lasts 1 us + (k % 5) * 100 ns, named
// "gemm" or "attn" in turn; nothing overlaps.
trace::RunData generated_run() {
    trace::RunData run;
    run.info.name = "generated";
    run.lanes = {{trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"}};
    const std::uint32_t names[] = {run.strings.intern("gemm"), run.strings.intern("attn")};
    for (int k = 0; k < kKernels; ++k) {
        trace::Activity a;
        a.start_ns = k * 2000LL;
        a.end_ns = a.start_ns + 1000 + (k % 5) * 100;
        a.name = names[k % 2];
        run.activities.push_back(a);
    }
    return run;
}

std::int64_t busy_of(const trace::RunData& run) {
    std::int64_t busy = 0;
    for (const auto& a : run.activities) busy += a.duration_ns();
    return busy;
}

}  // namespace

class TimelineSummariesTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        path_ = dir_.filePath(QStringLiteral("generated.tokenscope"));
        store::StoreWriter(path_.toStdString()).write_run(generated_run());
        auto runs = ui::RunLoader::load(path_.toStdString(), {});
        QCOMPARE(runs.size(), std::size_t(1));
        run_ = test::open_run(std::move(runs[0]), path_);
        run_.file_run = 0;
    }

    // Zoomed out, a frame is painted from summary bins once their tiles are in: their
    // counts and busy time are the generated run's, and the painter read them.
    void zoomedOutPaintsFromSummaries() {
        ui::TimelineView view;
        view.setSummaryThreshold(1000);
        view.resize(1200, 300);
        view.setRun(run_);
        auto* tiles = view.summaryTiles();
        QVERIFY(tiles != nullptr);
        QSignalSpy arrived(tiles, &ui::SummaryTiles::tilesArrived);
        QVERIFY(arrived.wait(10'000));  // the levels
        QVERIFY(!tiles->levels(0).empty());
        QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
        view.render(&image);  // asks for the tiles in view
        QVERIFY(tiles->stats().misses > 0);
        tiles->waitForIdle();
        const auto before = tiles->stats();
        view.render(&image);
        const auto after = tiles->stats();
        QVERIFY(after.summary_rows > before.summary_rows);
        QCOMPARE(after.misses, before.misses);  // all in the cache now
        // The bins of the level the view paints hold every kernel and its time.
        const auto& vp = view.viewport();
        const int level = analysis::SummaryLod::level_for(tiles->levels(0), vp.ns_per_px());
        QVERIFY(level >= 0);
        std::vector<store::SummaryBin> bins;
        QVERIFY(tiles->bins(0, level, 0, kKernels * 2000LL, bins));
        std::int64_t count = 0, busy = 0;
        for (const auto& b : bins) count += b.count, busy += b.busy_ns;
        QCOMPARE(count, std::int64_t(kKernels));
        QCOMPARE(busy, busy_of(*run_.data));
        QVERIFY(after.cached <= ui::SummaryTiles::kMaxTiles);
    }

    // Zoomed in to a few kernels, the frame is painted from the activities and hovering a
    // kernel gives that very kernel.
    void zoomedInHoversTheRealActivity() {
        ui::TimelineView view;
        view.setSummaryThreshold(1000);
        view.resize(1200, 300);
        view.setRun(run_);
        QSignalSpy arrived(view.summaryTiles(), &ui::SummaryTiles::tilesArrived);
        QVERIFY(arrived.wait(10'000));
        const std::size_t k = 123'457;  // starts at 246.914 ms, lasts 1.2 us
        const auto& a = run_.data->activities[k];
        view.showRange(a.start_ns - 4000, a.end_ns + 4000);
        QCOMPARE(analysis::SummaryLod::level_for(view.summaryTiles()->levels(0),
                                                 view.viewport().ns_per_px()),
                 -1);
        const auto frames = view.summaryTiles()->stats().summary_rows;
        QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
        view.render(&image);
        QCOMPARE(view.summaryTiles()->stats().summary_rows, frames);
        const auto* row = view.scene().layout->row_of_lane(0);
        QVERIFY(row != nullptr);
        const double mid = view.viewport().x_of((a.start_ns + a.end_ns) / 2);
        const QPoint at(ui::TimelineLayout::kLabelWidth + static_cast<int>(mid),
                        ui::TimelineLayout::kAxisHeight + row->y - view.scene().scroll_y + 8);
        QCOMPARE(view.activityAt(at), k);
        view.hoverAt(at);
        QCOMPARE(view.scene().hovered, k);
        QCOMPARE(QString::fromUtf8(run_.data->strings.str(a.name)), QStringLiteral("attn"));
    }

    // A run under the threshold, or not from a file, paints as before: no summaries.
    void smallRunsKeepTheirActivities() {
        ui::TimelineView view;
        view.setRun(run_);  // default threshold: 200,000 kernels are few
        QVERIFY(view.summaryTiles() == nullptr);
    }

  private:
    QTemporaryDir dir_;
    QString path_;
    ui::OpenRun run_;
};

QTEST_MAIN(TimelineSummariesTest)
#include "timeline_summaries_test.moc"
