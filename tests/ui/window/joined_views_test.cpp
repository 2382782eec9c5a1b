// The views of a joined run (client tokens over engine iterations, issue 12 item 3) on
// the hand-made run of tests/joined_hand_run.h: the request track above the iteration
// track, a click from the planted slow token to its iteration and kernels, the
// breakdown's token table and the ITL-by-request heatmap leading to the same token.
#include <QComboBox>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "../../joined_hand_run.h"
#include "../hand_run.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/breakdown/slow_token_model.h"
#include "ui/breakdown/token_table.h"
#include "ui/heatmap/heatmap_tab.h"
#include "ui/plots/heatmap_plot.h"
#include "ui/timeline/request_track.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"
#include "ui/timeline/token_selector.h"
#include "ui/timeline/token_track.h"

using namespace tokenscope;
using H = test::JoinedHandRun;
using ui::TimelineLayout;

class JoinedViewsTest : public QObject {
    Q_OBJECT

    ui::OpenRun run_ = test::open_run(test::joined_hand_run(), QStringLiteral("joined"));

    // Indices of the kernels that start inside iteration k (planted two per iteration).
    std::vector<std::size_t> kernels_of(int k) const {
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < run_.data->activities.size(); ++i) {
            const auto& a = run_.data->activities[i];
            if (a.start_ns >= H::start_of(k) && a.start_ns < H::end_of(k)) out.push_back(i);
        }
        return out;
    }

  private slots:
    // Settings of its own (CTest gives each test its own XDG_CONFIG_HOME as well).
    void initTestCase() {
        QCoreApplication::setApplicationName(QStringLiteral("joined_views_test"));
        QSettings().clear();
    }

    void requestTrackPacksRequestsAndLinksTokens() {
        const auto& track = run_.index->requests();
        QVERIFY(track.shown());
        // All four requests overlap from start to end: one sub-row each.
        QCOMPARE(track.slot_count(), 4);
        QSet<int> sub_rows;
        for (int r = 1; r <= 4; ++r) sub_rows.insert(track.slot_of(H::token_step(r, 0)));
        QCOMPARE(sub_rows.size(), 4);
        QCOMPARE(track.slot_of(0), -1);  // an iteration
        QCOMPARE(track.itl_ns(H::token_step(2, H::kSlow)), H::kSlowNs);
        QCOMPARE(track.iteration_of(H::token_step(2, H::kSlow)), H::kSlow);
        QCOMPARE(track.median_itl_ns(), H::kNormalNs);
        // A plain decode run has no request track: its one step track is unchanged.
        const auto plain = test::open_run(test::hand_run());
        QVERIFY(!plain.index->requests().shown());
    }

    void requestTrackSitsAboveTheIterations() {
        ui::TimelineView view;
        view.resize(1200, 500);
        view.setRun(run_);
        const auto& rows = view.scene().layout->rows();
        QVERIFY(rows.size() >= 2);
        QCOMPARE(rows[0].kind, TimelineLayout::RowKind::Tokens);
        QCOMPARE(rows[0].depth_rows, 4);
        QCOMPARE(rows[1].kind, TimelineLayout::RowKind::Steps);
        QCOMPARE(rows[1].label, QStringLiteral("Iterations"));
    }

    void clickingTheSlowTokenSelectsItsIterationAndKernels() {
        ui::TimelineTab tab;
        tab.resize(1400, 600);
        tab.setRun(run_);
        ui::TimelineView* view = tab.view();
        QSignalSpy selected(tab.tokens(), &ui::TokenSelector::tokenSelected);
        QSignalSpy range(view, &ui::TimelineView::rangeSelected);
        QSignalSpy details(view, &ui::TimelineView::detailsChanged);
        const int slow = static_cast<int>(H::token_step(2, H::kSlow));
        const QRect r = view->tokenRect(slow);
        QVERIFY2(!r.isEmpty(), "the slow token is on screen after the fit");
        QCOMPARE(view->tokenAt(r.center()), slow);
        QTest::mouseClick(view, Qt::LeftButton, {}, r.center());
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected[0][0].toInt(), slow);
        QCOMPARE(selected[0][1].toInt(), H::kSlow);
        // The iteration's range goes to the attribution panel; its kernels are outlined.
        QCOMPARE(range.count(), 1);
        QCOMPARE(range[0][0].toLongLong(), H::start_of(H::kSlow));
        QCOMPARE(range[0][1].toLongLong(), H::end_of(H::kSlow));
        QCOMPARE(view->scene().highlighted, kernels_of(H::kSlow));
        QCOMPARE(view->scene().selected_iteration, H::kSlow);
        QVERIFY(!details.isEmpty());
        const QString text = details.last()[0].toString();
        QVERIFY2(text.contains(QStringLiteral("iteration 4707")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("60% gpu_compute in flash_fwd_kernel")),
                 qPrintable(text));
        // A click on an ordinary token moves the selection to its own iteration.
        const int normal = static_cast<int>(H::token_step(1, 2));
        QTest::mouseClick(view, Qt::LeftButton, {}, view->tokenRect(normal).center());
        QCOMPARE(selected.count(), 2);
        QCOMPARE(selected[1][1].toInt(), 2);
        QCOMPARE(view->scene().highlighted, kernels_of(2));
        // The slow token stands out in colour.
        QVERIFY(ui::TokenTrack::color(H::kSlowNs, H::kNormalNs) !=
                ui::TokenTrack::color(H::kNormalNs, H::kNormalNs));
    }

    void paintsTheRequestTrack() {
        ui::TimelineTab tab;
        tab.resize(1400, 600);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        tab.setRun(run_);
        // A selection away from the token checked, so no overlay tints it.
        QVERIFY(tab.selectToken(static_cast<int>(H::token_step(1, 1))));
        QImage image(tab.view()->size(), QImage::Format_ARGB32);
        tab.view()->render(&image);
        // The slow token's fill, drawn at its place in the request track.
        const QRect r = tab.view()->tokenRect(static_cast<int>(H::token_step(3, H::kSlow)));
        QCOMPARE(image.pixelColor(r.center()), ui::TokenTrack::color(H::kSlowNs, H::kNormalNs));
    }

    void breakdownListsTokensAndActivatesOne() {
        ui::BreakdownTab tab;
        tab.resize(1200, 800);
        ui::TokenTable* table = tab.findChild<ui::TokenTable*>(QStringLiteral("tokenTable"));
        QVERIFY(table != nullptr);
        QSignalSpy ready(table, &ui::TokenTable::tokensReady);
        tab.setRun(run_);
        QTRY_COMPARE(ready.count(), 1);
        QVERIFY(!table->isHidden());
        auto* view = table->findChild<QTableView*>(QStringLiteral("tokenTableView"));
        QVERIFY(view != nullptr);
        const auto* model = table->model();
        QCOMPARE(model->rowCount(), 36);  // 4 requests x 9 tokens with an ITL
        QCOMPARE(model->index(0, ui::SlowTokenModel::Iteration).data().toInt(), H::kSlowNumber);
        QCOMPARE(model->index(0, ui::SlowTokenModel::Dominant).data().toString(),
                 QStringLiteral("60% gpu_compute"));
        QSignalSpy activated(table, &ui::TokenTable::tokenActivated);
        static_cast<QWidget&>(tab).show();  // BreakdownTab::show(Result) hides it
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        const QRect cell = view->visualRect(model->index(1, 0));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated[0][0].toInt(), static_cast<int>(H::token_step(2, H::kSlow)));
        // One request's tokens, in token order.
        auto* choice = table->findChild<QComboBox*>(QStringLiteral("tokenRequestChoice"));
        QVERIFY(choice != nullptr);
        choice->setCurrentIndex(choice->findData(qint64{3}));
        QTRY_COMPARE(ready.count(), 2);
        QCOMPARE(model->rowCount(), H::kIterations);
        QCOMPARE(model->index(H::kSlow, ui::SlowTokenModel::Token).data().toInt(), H::kSlow);
        // Runs that are not joined keep the breakdown as it was.
        tab.setRun(test::open_run(test::hand_run()));
        QVERIFY(table->isHidden());
    }

    void heatmapOfItlByRequestLeadsToTheSlowToken() {
        ui::HeatmapTab tab;
        tab.resize(1200, 700);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QSignalSpy ready(&tab, &ui::HeatmapTab::heatmapReady);
        tab.setRun(run_);
        QTRY_COMPARE(ready.count(), 1);
        const auto& map = *tab.heatmap();
        QCOMPARE(map.spec.rows, analysis::HeatmapRows::Request);
        QCOMPARE(map.spec.metric, analysis::HeatmapMetric::Itl);
        QCOMPARE(map.row_count(), std::size_t(4));  // no "req 0" of iteration gaps
        tab.plot()->replot();
        // The cell of request 2 whose window holds its slow token's emission.
        const std::size_t row = 1;
        QCOMPARE(map.row_labels[row], std::string("req 2"));
        std::size_t column = map.column_count();
        for (std::size_t c = 0; c < map.column_count(); ++c)
            if (map.columns[c].start_ns <= H::emission(2, H::kSlow) &&
                H::emission(2, H::kSlow) < map.columns[c].end_ns)
                column = c;
        QVERIFY(column < map.column_count());
        QSignalSpy token(&tab, &ui::HeatmapTab::tokenActivated);
        QTest::mouseClick(tab.plot(), Qt::LeftButton, {},
                          tab.plot()->cellCenter(row, column).toPoint());
        QCOMPARE(token.count(), 1);
        QCOMPARE(token[0][0].toInt(), static_cast<int>(H::token_step(2, H::kSlow)));
    }
};

QTEST_MAIN(JoinedViewsTest)
#include "joined_views_test.moc"
