// The main window end to end: open, drop two files, drop a bad file, units persisted.
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QListView>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include "support/hand_store.h"
#include "support/test_settings.h"
#include "ui/breakdown/attribution_panel.h"
#include "ui/compare/compare_tab.h"
#include "ui/shared/run_list_model.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"

using namespace tokenscope;

class MainWindowTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    static void drop(ui::MainWindow& window, const QStringList& paths, QPoint pos) {
        QMimeData mime;
        QList<QUrl> urls;
        for (const QString& p : paths) urls << QUrl::fromLocalFile(p);
        mime.setUrls(urls);
        QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent dropped(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &dropped);
    }

  private slots:
    void initTestCase() {
        tokenscope::test::use_test_settings(QStringLiteral("main_window_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
    }

    // The default window fits a 1600 px wide screen with room for its frame,
    // and nothing inside forces it wider (a 1366 px laptop still fits it).
    void defaultWindowFitsTheScreen() {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString parts;
        for (int i = 0; i < window.findChild<QTabWidget*>()->count(); ++i)
            parts +=
                QStringLiteral(" tab%1=%2")
                    .arg(i)
                    .arg(window.findChild<QTabWidget*>()->widget(i)->minimumSizeHint().width());
        QVERIFY2(window.width() <= 1500, qPrintable(QString::number(window.width()) + parts));
        QVERIFY2(window.minimumSizeHint().width() <= 1340,
                 qPrintable(QString::number(window.minimumSizeHint().width()) + parts));
        // Comparing two runs with long names and paths must not widen it either.
        const QString a = test::write_hand_store(
            dir_, QStringLiteral("a-run-with-a-long-name.tokenscope"), std::string(80, 'a'));
        const QString b = test::write_hand_store(
            dir_, QStringLiteral("b-run-with-a-long-name.tokenscope"), std::string(80, 'b'));
        QSignalSpy compare(&window, &ui::MainWindow::compareRequested);
        drop(window, {a, b}, QPoint(700, 400));
        QTRY_COMPARE(compare.count(), 1);
        window.findChild<QTabWidget*>()->setCurrentWidget(window.findChild<ui::CompareTab*>());
        QString sizes;
        for (auto* d : window.findChildren<QDockWidget*>())
            sizes +=
                QStringLiteral(" %1=%2").arg(d->objectName()).arg(d->minimumSizeHint().width());
        auto* tabs = window.findChild<QTabWidget*>();
        for (int i = 0; i < tabs->count(); ++i)
            sizes +=
                QStringLiteral(" tab%1=%2").arg(i).arg(tabs->widget(i)->minimumSizeHint().width());
        QTRY_VERIFY2(window.minimumSizeHint().width() <= 1340,
                     qPrintable(QString::number(window.minimumSizeHint().width()) + sizes));
        QVERIFY2(window.width() <= 1500, qPrintable(QString::number(window.width())));
    }

    void openingAFilePopulatesRunsAndTimeline() {
        const QString path =
            test::write_hand_store(dir_, QStringLiteral("one.tokenscope"), "first run");
        ui::MainWindow window;
        window.resize(1400, 800);
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        // A path as a shell or a script may spell it: the status bar names the file plainly.
        window.openFiles({dir_.path() + QStringLiteral("/./one.tokenscope")});
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(window.runList()->rowCount(), 1);
        QVERIFY(window.runList()
                    ->data(window.runList()->index(0))
                    .toString()
                    .contains(QStringLiteral("first run")));
        QCOMPARE(window.lastMessage(), QStringLiteral("Opened 1 run from ") + path);
        QCOMPARE(window.timelineTab()->view()->laneRowCount(), 4);
        QCOMPARE(window.timelineTab()->view()->run().data->activities.size(), std::size_t(5));
        QVERIFY(!window.busy());
        // Verdict of the hand run, worked out by hand: two steps of 25000 ns; the H2D copy
        // (6000 ns) is the only transfer: 6000 / 50000 = 12.0 %, below 25 %; GPU share
        // 10000 / 50000 = 20 %, below 75 %: no rule fires, so "mixed".
        QSignalSpy verdict(window.attributionPanel(), &ui::AttributionPanel::verdictReady);
        QTRY_VERIFY(verdict.count() > 0 ||
                    window.attributionPanel()->verdictText().contains(QStringLiteral("mixed")));
        const QString text = window.attributionPanel()->verdictText();
        QVERIFY2(text.contains(QStringLiteral("<b>mixed</b>")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Transfer share (NVLink + PCIe)</td><td align=right "
                                              "style='white-space:nowrap'>12.0 %")),
                 qPrintable(text));
    }

    void selectingARangeShowsItsAttribution() {
        const QString path =
            test::write_hand_store(dir_, QStringLiteral("sel.tokenscope"), "selection run");
        ui::MainWindow window;
        window.resize(1400, 800);
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({path});
        QTRY_COMPARE(opened.count(), 1);
        QSignalSpy ready(window.attributionPanel(), &ui::AttributionPanel::attributionReady);
        // [1000, 13000): the API call [1000, 1500) runs inside the range "decode step", so
        // the driving thread is busy throughout; the kernel [2000, 12000) outranks it.
        window.timelineTab()->view()->selectRange(1000, 13000);
        QTRY_COMPARE(ready.count(), 1);
        const auto& a = window.attributionPanel()->attribution();
        QCOMPARE(a.assigned[0], std::int64_t(10000));  // gpu_compute
        QCOMPARE(a.assigned[4], std::int64_t(2000));   // cpu
        QCOMPARE(a.assigned[5], std::int64_t(0));      // scheduling
        QCOMPARE(a.hidden[4], std::int64_t(10000));    // cpu hidden under the kernel
        QCOMPARE(window.attributionPanel()->table()->item(0, 2)->text(), QStringLiteral("83.3 %"));
    }

    void droppingTwoFilesCompares() {
        const QString a = test::write_hand_store(dir_, QStringLiteral("a.tokenscope"), "run A");
        const QString b = test::write_hand_store(dir_, QStringLiteral("b.tokenscope"), "run B");
        ui::MainWindow window;
        window.resize(1400, 800);
        QSignalSpy compare(&window, &ui::MainWindow::compareRequested);
        drop(window, {a, b}, QPoint(700, 400));
        QTRY_COMPARE(compare.count(), 1);
        QCOMPARE(compare[0][0].toString(), a);
        QCOMPARE(compare[0][1].toString(), b);
        QCOMPARE(window.runList()->rowCount(), 2);
        QCOMPARE(window.compareTab()->runA().name(), QStringLiteral("run A"));
        QCOMPARE(window.compareTab()->runB().name(), QStringLiteral("run B"));
        QCOMPARE(window.tabs()->currentWidget(), window.compareTab());
        QCOMPARE(window.runListView()->selectionModel()->selectedRows().size(), 2);
        QCOMPARE(window.lastMessage(), QStringLiteral("Opened 2 runs from %1, %2").arg(a, b));
    }

    void droppingABadFileReportsItAndKeepsRuns() {
        const QString good =
            test::write_hand_store(dir_, QStringLiteral("good.tokenscope"), "good run");
        const QString bad = dir_.filePath(QStringLiteral("noise.bin"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray noise(4096, '\0');
            for (int i = 0; i < noise.size(); ++i)
                noise[i] = static_cast<char>((i * 7919 + 13) % 251);
            f.write(noise);
        }
        ui::MainWindow window;
        window.resize(1400, 800);
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        QSignalSpy errors(&window, &ui::MainWindow::errorReported);
        window.openFiles({good});
        QTRY_COMPARE(opened.count(), 1);
        drop(window, {bad}, QPoint(700, 400));
        QTRY_COMPARE(errors.count(), 1);
        QVERIFY2(errors[0][0].toString().contains(QStringLiteral("noise.bin")),
                 qPrintable(errors[0][0].toString()));
        QVERIFY(window.lastMessage().contains(QStringLiteral("noise.bin")));
        QCOMPARE(window.runList()->rowCount(), 1);
        QCOMPARE(window.timelineTab()->view()->run().name(), QStringLiteral("good run"));
        QCOMPARE(opened.count(), 1);
    }

    // A file that cannot be opened, dropped on an empty window: a message box and the
    // timeline's canvas name the file and the problem, not only the status bar.
    void anUnopenableFileIsReportedInABoxAndTheCanvas() {
        const QString bad = dir_.filePath(QStringLiteral("broken.json"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"traceEvents\": [ {\"ph\": \"X\", \"name\": ");  // cut short
        }
        ui::MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(
            window.timelineTab()->view()->emptyText().startsWith(QStringLiteral("No run open")));
        QSignalSpy errors(&window, &ui::MainWindow::errorReported);
        drop(window, {bad}, QPoint(700, 400));
        QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, 30000);
        QMessageBox* box = window.errorBox();
        QVERIFY(box != nullptr);
        QTRY_VERIFY(box->isVisible());
        QVERIFY2(box->windowTitle().contains(QStringLiteral("broken.json")),
                 qPrintable(box->windowTitle()));
        QVERIFY2(box->text().contains(bad.toHtmlEscaped()), qPrintable(box->text()));
        // The problem itself, after the path: more than the file's name.
        const QString problem = errors[0][0].toString();
        QVERIFY2(box->text().size() > bad.size() + 40, qPrintable(box->text()));
        const QString canvas = window.timelineTab()->view()->emptyText();
        QVERIFY2(canvas.contains(bad) && !canvas.startsWith(QStringLiteral("No run open")),
                 qPrintable(canvas + QStringLiteral(" / ") + problem));
        box->accept();
    }

    void unitChoiceIsPersisted() {
        {
            ui::MainWindow window;
            window.setUnit(ui::plots::TimeUnit::Microseconds);
        }
        ui::MainWindow again;
        QCOMPARE(again.unit(), ui::plots::TimeUnit::Microseconds);
        again.setUnit(ui::plots::TimeUnit::Milliseconds);
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
