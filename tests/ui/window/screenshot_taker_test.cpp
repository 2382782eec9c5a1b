// tokenscope --screenshots: the pictures it says it saved are the ones on disk.
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "store/store_writer.h"
#include "support/fixtures.h"
#include "support/hand_store.h"
#include "support/test_settings.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"
#include "ui/window/run_loader.h"
#include "ui/window/screenshot_taker.h"

using namespace tokenscope;

class ScreenshotTakerTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void initTestCase() {
        test::use_test_settings(QStringLiteral("screenshot_taker_test"));
        QVERIFY(dir_.isValid());
    }

    // A file of one run holds no comparison and no sweep: three pictures, and the
    // message says three (it said four: the skipped sweep picture was counted).
    void countsThePicturesItWrote() {
        const QString file = test::write_hand_store(dir_, QStringLiteral("one.tokenscope"), "one");
        const QString out = dir_.filePath(QStringLiteral("shots"));
        ui::MainWindow window;
        window.resize(1366, 768);
        window.show();
        ui::ScreenshotTaker taker(&window, out);
        taker.setFile(file);
        QSignalSpy finished(&taker, &ui::ScreenshotTaker::finished);
        taker.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const QString message = finished[0][1].toString();
        QVERIFY2(finished[0][0].toBool(), qPrintable(message));
        const QStringList written =
            QDir(out).entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
        QCOMPARE(written,
                 (QStringList{QStringLiteral("breakdown.png"), QStringLiteral("heatmap.png"),
                              QStringLiteral("timeline.png")}));
        QCOMPARE(taker.saved().size(), written.size());
        QVERIFY2(message.startsWith(QStringLiteral("saved 3 pictures in ")), qPrintable(message));
    }

    // A run too large to read whole (here a real trace, made large by a low threshold)
    // paints its timeline from activities read in the background: the picture is taken
    // once they are in, not over "Reading the activities in view…".
    void waitsForTheActivitiesInView() {
        const char* trace = "engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz";
        TOKENSCOPE_QT_NEED_FIXTURE(trace);
        const QString file = dir_.filePath(QStringLiteral("vllm.tokenscope"));
        store::StoreWriter(file.toStdString())
            .write_run(ui::RunLoader::load(test::fixture_path(trace), {}).at(0));
        ui::MainWindow window;
        window.setLargeRunThreshold(1000);
        window.resize(1366, 768);
        window.show();
        ui::ScreenshotTaker taker(&window, dir_.filePath(QStringLiteral("large")));
        taker.setFile(file);
        auto* view = window.timelineTab()->view();
        bool checked = false;
        connect(&taker, &ui::ScreenshotTaker::pictureSaved, this, [&](const QString& shot) {
            if (shot != QStringLiteral("timeline.png")) return;
            checked = true;
            QVERIFY(view->activityWindow() != nullptr);
            QVERIFY(!view->reading());
            QVERIFY(view->scene().spans != nullptr);
            QVERIFY(view->scene().notice.isEmpty());
        });
        QSignalSpy finished(&taker, &ui::ScreenshotTaker::finished);
        taker.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][1].toString()));
        QVERIFY(checked);
    }
};

QTEST_MAIN(ScreenshotTakerTest)
#include "screenshot_taker_test.moc"
