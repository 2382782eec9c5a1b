// A large run opens without its activities (DESIGN.md section 17): the window's own open
// leaves them in the .tokenscope file, the timeline paints zoomed out from the summaries
// and reads the activities of a zoomed-in view in the background (ActivityWindow), and
// the Breakdown is analysed from the file. On a real trace (vLLM's piecewise-graph step,
// ../shared/fixtures), written to a file here; a small threshold makes it "large".
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <map>

#include "../settle.h"
#include "analysis/attribution/run_analysis.h"
#include "analysis/timeline/summary_lod.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "support/fixtures.h"
#include "support/old_store.h"
#include "ui/shared/run_analyzer.h"
#include "ui/timeline/activity_window.h"
#include "ui/timeline/summary_tiles.h"
#include "ui/timeline/timeline_index.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"
#include "ui/window/run_loader.h"

using namespace tokenscope;

namespace {

constexpr const char* kTrace = "engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz";

// The index of the longest kernel of `run`, found here by a plain scan.
std::size_t longest_kernel(const trace::RunData& run) {
    std::size_t best = 0;
    std::int64_t best_ns = -1;
    for (std::size_t i = 0; i < run.activities.size(); ++i) {
        const auto& a = run.activities[i];
        if (a.kind == trace::ActivityKind::Kernel && a.duration_ns() > best_ns)
            best = i, best_ns = a.duration_ns();
    }
    return best;
}

}  // namespace

class TimelineInFileTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        TOKENSCOPE_QT_NEED_FIXTURE(kTrace);
        QVERIFY(dir_.isValid());
        auto runs = ui::RunLoader::load(test::fixture_path(kTrace), {});
        QCOMPARE(runs.size(), std::size_t(1));
        whole_ = std::move(runs[0]);
        QVERIFY(whole_.activities.size() > 1000);
        path_ = dir_.filePath(QStringLiteral("vllm.tokenscope"));
        store::StoreWriter(path_.toStdString()).write_run(whole_);
    }

    // Opened through the window with a threshold under its size: no activity in memory,
    // their totals from the file, Find saying it searches the file, and the whole run
    // painted from its summaries with no activity read.
    void opensWithoutItsActivities() {
        ui::MainWindow window;
        window.setLargeRunThreshold(1000);
        window.resize(1400, 800);
        const ui::OpenRun run = open(window);
        QVERIFY(run.data->activities.empty());
        QVERIFY(run.data->in_file.has_value());
        QCOMPARE(run.data->activity_totals().activities(),
                 static_cast<std::int64_t>(whole_.activities.size()));
        QCOMPARE(run.data->steps.size(), whole_.steps.size());
        auto* view = window.timelineTab()->view();
        QVERIFY(view->activityWindow() != nullptr);
        QVERIFY(view->summaryTiles() != nullptr);
        auto* search = window.timelineTab()->searchBox();
        QVERIFY(search->isEnabled());
        QVERIFY(search->placeholderText().contains(
            QLocale().toString(static_cast<qlonglong>(whole_.activities.size()))));
        view->summaryTiles()->waitForIdle();  // the levels
        QImage image(view->size(), QImage::Format_ARGB32_Premultiplied);
        view->render(&image);
        view->summaryTiles()->waitForIdle();  // the tiles
        view->render(&image);
        QVERIFY(view->summaryTiles()->stats().summary_rows > 0);
        // Only lanes whose finest bins are over 2 px wide here paint activities, so only
        // theirs are read: the GPU stream with the most kernels paints from its bins.
        std::map<std::uint16_t, std::size_t> per_lane;
        for (const auto& a : whole_.activities) ++per_lane[a.lane];
        const auto densest =
            std::max_element(per_lane.begin(), per_lane.end(), [](auto& a, auto& b) {
                return a.second < b.second;
            })->first;
        auto* stretch = view->activityWindow();
        stretch->waitForIdle();
        view->render(&image);
        const double ns_per_px = view->viewport().ns_per_px();
        std::size_t wanted = 0;
        for (const auto& [lane, count] : per_lane)
            if (analysis::SummaryLod::level_for(view->summaryTiles()->levels(lane), ns_per_px) < 0)
                wanted += count;
        QVERIFY(analysis::SummaryLod::level_for(view->summaryTiles()->levels(densest), ns_per_px) >=
                0);
        QCOMPARE(stretch->stats().activities, wanted);
        QVERIFY(wanted < per_lane[densest]);

        // The lanes read here learnt their nesting from the stretch (the run's own index
        // has no activities to know it from): the levels of the whole run's index.
        const ui::TimelineIndex whole_index(whole_);
        int nested = 0;
        for (const auto& [lane, count] : per_lane) {
            if (analysis::SummaryLod::level_for(view->summaryTiles()->levels(lane), ns_per_px) >= 0)
                continue;
            const auto* row = view->scene().layout->row_of_lane(lane);
            QVERIFY(row != nullptr);
            QCOMPARE(row->levels, whole_index.max_depth(lane) + 1);
            nested += row->levels > 1;
        }
        QVERIFY(nested > 0);

        // Hovering the densest stream, painted from its bins, says what the bin there holds:
        // as many activities as start in it, counted here from the trace.
        std::vector<const trace::Activity*> on_densest;
        for (const auto& a : whole_.activities)
            if (a.lane == densest) on_densest.push_back(&a);
        const auto& k = *on_densest[on_densest.size() / 2];
        const auto* row = view->scene().layout->row_of_lane(densest);
        QVERIFY(row != nullptr);
        const QPoint at(
            ui::TimelineLayout::kLabelWidth + static_cast<int>(view->viewport().x_of(k.start_ns)),
            ui::TimelineLayout::kAxisHeight + row->y - view->scene().scroll_y + 8);
        QCOMPARE(view->activityAt(at), ui::TimelineScene::kNone);
        const auto hit = view->binAt(at);
        QVERIFY(hit.has_value());
        QCOMPARE(hit->lane, static_cast<std::size_t>(densest));
        const std::int64_t b0 = hit->bin.bin << hit->bin_log2;
        const std::int64_t b1 = b0 + (std::int64_t{1} << hit->bin_log2);
        QVERIFY(b0 - 2 * ns_per_px <= k.start_ns && k.start_ns < b1 + 2 * ns_per_px);
        std::int64_t starting = 0;
        for (const auto* a : on_densest) starting += a->start_ns >= b0 && a->start_ns < b1;
        QVERIFY(starting > 0);
        QCOMPARE(hit->bin.count, starting);
        const QString tip = view->describeBin(*hit);
        QVERIFY2(tip.contains(
                     QLocale().toString(static_cast<qlonglong>(starting)) +
                     (starting == 1 ? QStringLiteral(" activity") : QStringLiteral(" activities"))),
                 qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("zoom in")));
        QVERIFY(test::settle());
    }

    // Zoomed in on the trace's longest kernel, the view reads a stretch around it and
    // hovering its middle gives that kernel: its name, start and end as the trace has them.
    // A pan inside the stretch reads nothing more; one far away reads the next.
    void zoomedInReadsWhatIsShown() {
        ui::MainWindow window;
        window.setLargeRunThreshold(1000);
        window.resize(1400, 800);
        open(window);
        auto* view = window.timelineTab()->view();
        view->summaryTiles()->waitForIdle();
        const auto& k = whole_.activities[longest_kernel(whole_)];
        view->showRange(k.start_ns - k.duration_ns() / 2, k.end_ns + k.duration_ns() / 2);
        QImage image(view->size(), QImage::Format_ARGB32_Premultiplied);
        view->render(&image);
        auto* stretch = view->activityWindow();
        const auto misses = stretch->stats().misses;
        const auto reads = stretch->stats().reads;
        QVERIFY(misses >= 1);
        stretch->waitForIdle();
        QVERIFY(stretch->stats().error.isEmpty());
        QCOMPARE(stretch->stats().reads, reads + 1);
        view->render(&image);
        QVERIFY(view->scene().spans == stretch->index());
        // The stretch holds the view and a view's width either side, and no more: counted
        // here from the trace itself.
        const std::int64_t w =
            view->viewport().end_ns(view->plotWidth()) - view->viewport().start_ns();
        const std::int64_t t0 = view->viewport().start_ns() - w, t1 = t0 + 3 * w;
        std::size_t around = 0;
        for (const auto& a : whole_.activities)
            if (a.start_ns < t1 && (a.end_ns > t0 || a.start_ns >= t0)) ++around;
        QVERIFY(stretch->stats().activities <= around);
        QVERIFY(stretch->stats().activities > 0);

        view->window()->show();
        const auto* row = view->scene().layout->row_of_lane(k.lane);
        QVERIFY(row != nullptr);
        // Its nesting row (the lane's rows were learnt from the stretch), from the whole run.
        const ui::TimelineIndex whole_index(whole_);
        int depth = -1;
        const std::size_t longest = longest_kernel(whole_);
        whole_index.for_each_visible(k.lane, k.start_ns, k.end_ns, [&](std::size_t i, int d) {
            if (i == longest) depth = d;
        });
        QVERIFY(depth >= 0);
        const double mid = view->viewport().x_of((k.start_ns + k.end_ns) / 2);
        const QPoint at(ui::TimelineLayout::kLabelWidth + static_cast<int>(mid),
                        ui::TimelineLayout::kAxisHeight + row->y - view->scene().scroll_y +
                            std::min(depth, row->depth_rows - 1) * ui::TimelineLayout::kSpanHeight +
                            8);
        const std::size_t hit = view->activityAt(at);
        QVERIFY(hit != ui::TimelineScene::kNone);
        const auto& got = stretch->index()->run().activities[hit];
        QCOMPARE(got.start_ns, k.start_ns);
        QCOMPARE(got.end_ns, k.end_ns);
        QCOMPARE(stretch->index()->run().name_of(got), whole_.name_of(k));
        QVERIFY(!view->describe(hit).isEmpty());

        const std::int64_t v0 = view->viewport().start_ns();
        view->showRange(v0 + w / 4, v0 + w / 4 + w);  // a quarter of a view on: inside
        QVERIFY(view->viewport().end_ns(view->plotWidth()) < t1);
        view->render(&image);
        QCOMPARE(stretch->stats().misses, misses);
        view->showRange(whole_.activities.front().start_ns,
                        whole_.activities.front().start_ns + w);  // far away
        view->render(&image);
        stretch->waitForIdle();
        QCOMPARE(stretch->stats().reads, reads + 2);
        QVERIFY(test::settle());
    }

    // The Breakdown of a run left in its file, with no attribution kept there, is
    // analysed from the file slice by slice: to the nanosecond what the whole trace in
    // memory gives.
    void analysedFromTheFile() {
        ui::MainWindow window;
        window.setLargeRunThreshold(1000);
        const ui::OpenRun run = open(window);
        QVERIFY(run.data->in_file.has_value());
        auto* analyzer = window.analyzer();
        QTRY_VERIFY_WITH_TIMEOUT(analyzer->result() != nullptr || !analyzer->error().isEmpty(),
                                 30'000);
        QVERIFY2(analyzer->error().isEmpty(), qPrintable(analyzer->error()));
        const auto got = analyzer->result();
        const auto want = analysis::analyse_run(whole_);
        QCOMPARE(got->steps.size(), want.steps.size());
        QVERIFY(!want.steps.empty());
        for (std::size_t i = 0; i < want.steps.size(); ++i) {
            QVERIFY(got->steps[i].assigned == want.steps[i].assigned);
            QVERIFY(got->steps[i].hidden == want.steps[i].hidden);
        }
        QCOMPARE(got->assessment.verdict.primary, want.assessment.verdict.primary);
        QCOMPARE(got->assessment.verdict.advice, want.assessment.verdict.advice);
        QVERIFY(test::settle());
    }

    // Find searches the file in the background when Enter is pressed: as many matches as
    // the trace has activities of such a name (counted here by a plain scan), and the first
    // from the view's start is revealed and marked once the activities there are read.
    void findSearchesTheFile() {
        ui::MainWindow window;
        window.setLargeRunThreshold(1000);
        window.resize(1400, 800);
        open(window);
        auto* tab = window.timelineTab();
        auto* view = tab->view();
        view->summaryTiles()->waitForIdle();
        const QString text = QStringLiteral("RoTaRy_EmBeDdInG");  // vLLM's rotary kernel
        std::size_t want = 0;
        for (const auto& a : whole_.activities)
            if (QString::fromUtf8(whole_.name_of(a).data(),
                                  static_cast<qsizetype>(whole_.name_of(a).size()))
                    .contains(text, Qt::CaseInsensitive))
                ++want;
        QVERIFY(want > 1);
        tab->searchBox()->setText(text);
        QCOMPARE(tab->fileSearch().count(), std::size_t(0));  // not as one types
        QTest::keyClick(tab->searchBox(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!tab->queryBusy(), 30'000);
        QCOMPARE(tab->fileSearch().count(), want);
        QCOMPARE(tab->fileSearch().position(), std::size_t(1));
        QImage image(view->size(), QImage::Format_ARGB32_Premultiplied);
        view->render(&image);  // asks for the activities of the match's view
        view->activityWindow()->waitForIdle();
        const std::size_t found = view->scene().found;
        QVERIFY(found != ui::TimelineScene::kNone);
        const auto& stretch = view->activityWindow()->index()->run();
        const auto& a = stretch.activities[found];
        QVERIFY(QString::fromUtf8(stretch.name_of(a).data(),
                                  static_cast<qsizetype>(stretch.name_of(a).size()))
                    .contains(text, Qt::CaseInsensitive));
        QTest::keyClick(tab->searchBox(), Qt::Key_Return);  // the next one
        QCOMPARE(tab->fileSearch().position(), std::size_t(2));
        QVERIFY(test::settle());
    }

    // The window's reader walks no table before its first stretch (a walk of every activity
    // chunk takes seconds at a billion): a damaged activity page fails the read that meets
    // it, and the view says why, naming the file, instead of showing nothing.
    void aDamagedActivityPageIsSaid() {
        const QString damaged = dir_.filePath(QStringLiteral("damaged.tokenscope"));
        QFile::remove(damaged);
        QVERIFY(QFile::copy(path_, damaged));
        test::corrupt_root_page(damaged.toStdString(), "activity_chunk");
        ui::MainWindow window;
        window.setLargeRunThreshold(1000);
        window.resize(1400, 800);
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({damaged});
        QVERIFY(opened.wait(30'000));
        auto* view = window.timelineTab()->view();
        view->summaryTiles()->waitForIdle();
        const auto& k = whole_.activities[longest_kernel(whole_)];
        view->showRange(k.start_ns, k.end_ns);
        QImage image(view->size(), QImage::Format_ARGB32_Premultiplied);
        view->render(&image);
        view->activityWindow()->waitForIdle();
        const QString error = view->activityWindow()->stats().error;
        QVERIFY2(error.contains(damaged) && error.contains(QStringLiteral("corrupt")),
                 qPrintable(error));
        view->render(&image);
        QVERIFY(view->scene().notice.contains(error));
        QVERIFY(view->activityWindow()->idle());  // not asked again and again
        QVERIFY(test::settle());
    }

    // Under the threshold the run is read whole, as before.
    void aSmallRunIsReadWhole() {
        ui::MainWindow window;
        window.setLargeRunThreshold(whole_.activities.size() + 1);
        const ui::OpenRun run = open(window);
        QCOMPARE(run.data->activities.size(), whole_.activities.size());
        QVERIFY(!run.data->in_file.has_value());
        QVERIFY(window.timelineTab()->view()->activityWindow() == nullptr);
        QVERIFY(test::settle());
    }

  private:
    ui::OpenRun open(ui::MainWindow& window) {
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({path_});
        if (!opened.wait(30'000)) return {};
        return window.timelineTab()->view()->run();
    }

    QTemporaryDir dir_;
    QString path_;
    trace::RunData whole_;
};

QTEST_MAIN(TimelineInFileTest)
#include "timeline_in_file_test.moc"
