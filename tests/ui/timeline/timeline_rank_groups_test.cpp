// The timeline of two ranks merged (tests/support/rank_kineto.h files opened through
// the GUI's loader, merged as a multi-file drop does): lanes under one header per rank
// and GPU, and a click on a header collapses its lanes and a second click expands them.
#include <stdlib.h>

#include <QTest>
#include <filesystem>
#include <fstream>
#include <set>

#include "../hand_run.h"
#include "import/merge/merge_ranks.h"
#include "support/rank_kineto.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/run_loader.h"

using namespace tokenscope;
using Layout = ui::TimelineLayout;

namespace {
// A directory of this test's own, removed with its files.
struct Dir {
    std::filesystem::path path;
    Dir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "rank-groups-XXXXXX").string();
        path = mkdtemp(tmpl.data());
    }
    ~Dir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    std::string write(const std::string& name, const std::string& bytes) const {
        const std::string p = (path / name).string();
        std::ofstream(p, std::ios::binary) << bytes;
        return p;
    }
};
}  // namespace

class TimelineRankGroupsTest : public QObject {
    Q_OBJECT

    static ui::OpenRun merged_run() {
        using namespace test::rank_kineto;
        Dir dir;
        std::vector<trace::RunData> ranks;
        for (int r = 0; r < 2; ++r) {
            const std::string path = dir.write("rank" + std::to_string(r) + ".json",
                                               rank_file(r, kT0 - r * 1'000'000, true));
            auto runs = ui::RunLoader::load(path, {});
            ranks.push_back(std::move(runs.front()));
        }
        trace::RunData merged = import::merge_ranks(std::move(ranks));
        ui::RunLoader::normalize(merged);
        return test::open_run(std::move(merged));
    }
    static std::vector<const Layout::Row*> headers(const ui::TimelineView& view) {
        std::vector<const Layout::Row*> out;
        for (const auto& r : view.scene().layout->rows())
            if (r.kind == Layout::RowKind::Group) out.push_back(&r);
        return out;
    }
    static QPoint label_point(const Layout::Row& row) {
        return {20, Layout::kAxisHeight + row.y + Layout::kSpanHeight / 2};
    }

  private slots:
    void lanesAreGroupedByRankAndGpu() {
        ui::TimelineView view;
        view.resize(1000, 600);
        view.setRun(merged_run());
        auto h = headers(view);
        // Each rank has a CPU thread and one GPU (device r): four groups in rank order.
        QCOMPARE(h.size(), std::size_t{4});
        QVERIFY(h[0]->label.contains(QStringLiteral("rank 0 \u00b7 CPU")));
        QVERIFY(h[1]->label.contains(QStringLiteral("rank 0 \u00b7 GPU 0")));
        QVERIFY(h[2]->label.contains(QStringLiteral("rank 1 \u00b7 CPU")));
        QVERIFY(h[3]->label.contains(QStringLiteral("rank 1 \u00b7 GPU 1")));
        // Every lane row below a header is a lane of that header's rank and GPU.
        const auto& run = *view.run().data;
        const auto& groups = view.scene().layout->groups();
        const Layout::Row* current = nullptr;
        for (const auto& r : view.scene().layout->rows()) {
            if (r.kind == Layout::RowKind::Group) current = &r;
            if (r.lane < 0 ||
                run.lanes[static_cast<std::size_t>(r.lane)].kind == trace::LaneKind::StepTrack)
                continue;
            QVERIFY(current != nullptr);
            const auto& g = groups[static_cast<std::size_t>(current->group)];
            QCOMPARE(run.lanes[static_cast<std::size_t>(r.lane)].rank, g.rank);
            QCOMPARE(run.lanes[static_cast<std::size_t>(r.lane)].device, g.device);
        }
    }

    void clickingAHeaderCollapsesAndExpandsItsLanes() {
        ui::TimelineView view;
        view.resize(1000, 600);
        view.setRun(merged_run());
        const int lanes = view.laneRowCount();
        const int height = view.scene().layout->content_height();
        auto h = headers(view);
        const int group = h[3]->group;  // rank 1's GPU
        const auto hidden = static_cast<int>(
            view.scene().layout->groups()[static_cast<std::size_t>(group)].lanes.size());
        QVERIFY(hidden >= 1);
        QTest::mouseClick(&view, Qt::LeftButton, {}, label_point(*h[3]));
        QVERIFY(view.scene().layout->collapsed(group));
        QCOMPARE(view.laneRowCount(), lanes - hidden);
        QVERIFY(view.scene().layout->content_height() < height);
        QVERIFY(headers(view)[3]->label.startsWith(QStringLiteral("\u25b8")));  // closed mark
        // Another header still toggles on its own: collapse rank 0's CPU too.
        QTest::mouseClick(&view, Qt::LeftButton, {}, label_point(*headers(view)[0]));
        QVERIFY(view.scene().layout->collapsed(headers(view)[0]->group));
        QVERIFY(view.laneRowCount() < lanes - hidden);
        // Second clicks expand both again, back to every lane.
        QTest::mouseClick(&view, Qt::LeftButton, {}, label_point(*headers(view)[0]));
        QTest::mouseClick(&view, Qt::LeftButton, {}, label_point(*headers(view)[3]));
        QCOMPARE(view.laneRowCount(), lanes);
        QCOMPARE(view.scene().layout->content_height(), height);
        QVERIFY(headers(view)[3]->label.startsWith(QStringLiteral("\u25be")));
        // A new run starts expanded.
        QTest::mouseClick(&view, Qt::LeftButton, {}, label_point(*headers(view)[3]));
        view.setRun(merged_run());
        QCOMPARE(view.laneRowCount(), lanes);
    }

    void aSingleGpuRunHasNoHeaders() {
        ui::TimelineView view;
        view.resize(1000, 400);
        view.setRun(test::open_run(test::hand_run("one gpu")));
        QVERIFY(headers(view).empty());
        QVERIFY(!view.scene().layout->grouped());
    }
};

QTEST_MAIN(TimelineRankGroupsTest)
#include "timeline_rank_groups_test.moc"
