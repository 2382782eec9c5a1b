// A joined run opened without its activities (DESIGN.md section 17, as a large one is):
// a click on a token reads its iteration's attribution and kernels from the file in the
// background, the details then say what they say of the run read whole, and the kernels
// outlined are the iteration's in the stretch the timeline read; the breakdown's token
// table explains the slowest tokens from the file too. On tests/joined_hand_run.h (every
// figure worked out by hand), written to a file here; a threshold of one activity makes it
// "large".
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "../../joined_hand_run.h"
#include "../settle.h"
#include "store/store_writer.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/breakdown/slow_token_model.h"
#include "ui/breakdown/token_table.h"
#include "ui/timeline/activity_window.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"
#include "ui/timeline/token_selector.h"
#include "ui/window/main_window.h"

using namespace tokenscope;
using H = test::JoinedHandRun;

class JoinedInFileTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QCoreApplication::setApplicationName(QStringLiteral("joined_in_file_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        path_ = dir_.filePath(QStringLiteral("joined.tokenscope"));
        store::StoreWriter(path_.toStdString()).write_run(test::joined_hand_run());
    }

    void aClickReadsTheTokensKernelsFromTheFile() {
        ui::MainWindow window;
        window.setLargeRunThreshold(1);
        window.resize(1400, 800);
        QVERIFY(open(window));
        QVERIFY(window.timelineTab()->view()->run().data->in_file.has_value());
        ui::TimelineTab* tab = window.timelineTab();
        ui::TimelineView* view = tab->view();
        QSignalSpy details(view, &ui::TimelineView::detailsChanged);
        const int slow = static_cast<int>(H::token_step(2, H::kSlow));
        QVERIFY(tab->selectToken(slow));
        QCOMPARE(view->scene().selected_iteration, H::kSlow);
        QVERIFY2(details.last()[0].toString().contains(QStringLiteral("reading")),
                 qPrintable(details.last()[0].toString()));
        QTRY_VERIFY(!tab->tokens()->reading());
        // The sentence of the run read whole (joined_views_test), worked out by hand.
        const QString text = details.last()[0].toString();
        QVERIFY2(text.contains(QStringLiteral("iteration 4707")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("60% gpu_compute in flash_fwd_kernel")),
                 qPrintable(text));
        // The view shows the iteration: it reads a stretch, and outlines the two kernels
        // planted in it.
        QImage image(view->size(), QImage::Format_ARGB32_Premultiplied);
        view->render(&image);
        view->activityWindow()->waitForIdle();
        const ui::TimelineIndex* stretch = view->scene().spans;
        QVERIFY(stretch != nullptr);
        const auto& highlighted = view->scene().highlighted;
        QCOMPARE(highlighted.size(), std::size_t(2));
        for (std::size_t i : highlighted) {
            const auto& a = stretch->run().activities.at(i);
            QCOMPARE(a.kind, trace::ActivityKind::Kernel);
            QVERIFY(a.start_ns >= H::start_of(H::kSlow) && a.end_ns <= H::end_of(H::kSlow));
        }
        QCOMPARE(tab->tokens()->kernels(), highlighted);
        QVERIFY(test::settle());
    }

    void theTokenTableExplainsFromTheFile() {
        ui::MainWindow window;
        window.setLargeRunThreshold(1);
        window.resize(1400, 800);
        auto* table =
            window.breakdownTab()->findChild<ui::TokenTable*>(QStringLiteral("tokenTable"));
        QVERIFY(table != nullptr);
        QSignalSpy ready(table, &ui::TokenTable::tokensReady);
        QVERIFY(open(window));
        QTRY_VERIFY(ready.count() >= 1);
        const auto* model = table->model();
        QCOMPARE(model->rowCount(), 36);  // 4 requests x 9 tokens with an ITL
        QCOMPARE(model->index(0, ui::SlowTokenModel::Iteration).data().toInt(), H::kSlowNumber);
        QCOMPARE(model->index(0, ui::SlowTokenModel::Dominant).data().toString(),
                 QStringLiteral("60% gpu_compute"));
        QVERIFY(test::settle());
    }

  private:
    bool open(ui::MainWindow& window) {
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({path_});
        return opened.wait(30'000);
    }

    QTemporaryDir dir_;
    QString path_;
};

QTEST_MAIN(JoinedInFileTest)
#include "joined_in_file_test.moc"
