// Level of detail: fold counts at given ns-per-pixel, and that nothing visible is dropped.
#include <QTest>
#include <random>

#include "../hand_run.h"
#include "ui/timeline/span_folder.h"

using namespace tokenscope;

namespace {

// One GPU stream of `n` kernels of 10 ns every 20 ns starting at 0, then one wide
// kernel [100000, 200000).
ui::OpenRun dense_run(int n) {
    trace::RunData run;
    run.lanes = {{trace::LaneKind::GpuStream, 0, 1, 1, "stream"}};
    const auto name = run.strings.intern("k");
    for (int i = 0; i < n; ++i)
        run.activities.push_back({i * 20LL, i * 20LL + 10, 0, 0, name, 0, 0});
    run.activities.push_back({100000, 200000, 0, 0, name, 0, 0});
    return test::open_run(std::move(run));
}

std::size_t total_count(const std::vector<ui::SpanItem>& items) {
    std::size_t n = 0;
    for (const auto& it : items) n += it.count;
    return n;
}

}  // namespace

class SpanFolderTest : public QObject {
    Q_OBJECT
  private slots:
    void foldsNarrowSpansIntoOneBlock() {
        auto r = dense_run(1000);  // 1000 kernels over [0, 19990 ns)
        ui::TimelineViewport vp;
        vp.fit(0, 250000, 1000);  // 250 ns per px: each kernel 0.04 px, all within 80 px
        const auto items = ui::SpanFolder::collect(*r.index, 0, vp, 1000, 1);
        QCOMPARE(items.size(), std::size_t(2));
        QCOMPARE(items[0].count, std::size_t(1000));
        QCOMPARE(items[0].first, std::size_t(0));
        QCOMPARE(items[1].count, std::size_t(1));  // the wide kernel: 400 px
        QCOMPARE(items[1].first, std::size_t(1000));
    }

    void zoomedInShowsEverySpan() {
        auto r = dense_run(1000);
        ui::TimelineViewport vp;
        vp.fit(0, 1990, 1000);  // 1.99 ns per px: a kernel and a gap are 5 px each
        const auto items = ui::SpanFolder::collect(*r.index, 0, vp, 1000, 1);
        // Kernels starting in [0, 1991) overlap the window: 100 of them, none folded.
        QCOMPARE(items.size(), std::size_t(100));
        for (const auto& it : items) QCOMPARE(it.count, std::size_t(1));
    }

    // Random nested and flat lanes at several zooms: every activity overlapping the window
    // is counted exactly once (drawn or folded), and nothing outside is.
    void nothingVisibleIsDropped() {
        std::mt19937 rng(7);
        trace::RunData run;
        run.lanes = {{trace::LaneKind::GpuStream, 0, 1, 1, "flat"},
                     {trace::LaneKind::CpuThread, -1, 1, 2, "nested"}};
        std::int64_t t = 0;
        for (int i = 0; i < 5000; ++i) {
            const std::int64_t d = 1 + static_cast<std::int64_t>(rng() % 3000);
            run.activities.push_back({t, t + d, 0, 0, 0, 0, 0});
            t += d + static_cast<std::int64_t>(rng() % 500);
        }
        t = 0;
        for (int i = 0; i < 1000; ++i) {
            const std::int64_t d = 1000 + static_cast<std::int64_t>(rng() % 20000);
            run.activities.push_back({t, t + d, 0, 0, 0, 0, 1});
            for (std::int64_t c = t + 10; c + 100 < t + d; c += 150 + rng() % 3000)
                run.activities.push_back({c, c + 100, 0, 0, 0, 0, 1});
            t += d + static_cast<std::int64_t>(rng() % 100);
        }
        auto r = test::open_run(std::move(run));
        const auto& acts = r.data->activities;
        for (double ns_per_px : {0.5, 7.0, 90.0, 3000.0, 1e6}) {
            for (std::uint16_t lane : {0, 1}) {
                ui::TimelineViewport vp;
                vp.fit(123456, static_cast<std::int64_t>(123456 + 800 * ns_per_px), 800);
                const std::int64_t t0 = vp.start_ns(), t1 = vp.end_ns(800);
                std::size_t expected = 0;
                for (const auto& a : acts)
                    if (a.lane == lane && a.start_ns < t1 && a.end_ns > t0) ++expected;
                const auto items = ui::SpanFolder::collect(*r.index, lane, vp, 800, 6);
                QCOMPARE(total_count(items), expected);
                for (const auto& it : items)
                    if (it.count > 1) QVERIFY(it.x1 - it.x0 >= 0);
            }
        }
    }
};

QTEST_MAIN(SpanFolderTest)
#include "span_folder_test.moc"
