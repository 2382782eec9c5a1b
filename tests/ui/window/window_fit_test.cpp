// The main window on the screen it opens on: a laptop's 1366 x 768 (the default) or the
// size in TOKENSCOPE_TEST_SCREEN (1920x1080). Offscreen, the platform gets a screen of
// that size (its own is 800 x 800); under Xvfb (QT_QPA_PLATFORM=xcb) the X screen is used.
#include <QAbstractItemView>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QListView>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

#include "support/test_settings.h"
#include "ui/breakdown/attribution_panel.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/compare/compare_tab.h"
#include "ui/shared/run_list_model.h"
#include "ui/window/main_window.h"
#include "ui/window/sample_run.h"

using namespace tokenscope;

namespace {

QSize wanted_screen() {
    const QByteArray env = qgetenv("TOKENSCOPE_TEST_SCREEN");
    const QList<QByteArray> parts = (env.isEmpty() ? QByteArray("1366x768") : env).split('x');
    return {parts.value(0).toInt(), parts.value(1).toInt()};
}

// What the user sees of `w`: inside the window, not clipped by a parent's edge.
QString outside(const QWidget* w, const QMainWindow& window) {
    const QRect r(w->mapTo(&window, QPoint(0, 0)), w->size());
    return window.rect().contains(r)
               ? QString()
               : QStringLiteral("%1 at %2,%3 %4x%5 outside the window %6x%7")
                     .arg(w->objectName().isEmpty()
                              ? QString::fromUtf8(w->metaObject()->className())
                              : w->objectName())
                     .arg(r.x())
                     .arg(r.y())
                     .arg(r.width())
                     .arg(r.height())
                     .arg(window.width())
                     .arg(window.height());
}

}  // namespace

class WindowFitTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString sample_;

    static QRect free_area(const QWidget& w) { return w.screen()->availableGeometry(); }

  private slots:
    void initTestCase() {
        test::use_test_settings(QStringLiteral("window_fit_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        QCOMPARE(QGuiApplication::primaryScreen()->size(), wanted_screen());
        // A copy: opening a file of an older schema brings it up to date in place.
        sample_ = dir_.filePath(QStringLiteral("sample.tokenscope"));
        QVERIFY(QFile::copy(ui::SampleRun::path(), sample_));
    }

    // The first start takes most of the screen, frame and all inside its free area, and
    // nothing inside forces the window larger than the screen.
    void firstStartFitsTheScreen() {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QRect free = free_area(window);
        QVERIFY2(free.contains(window.frameGeometry()),
                 qPrintable(QStringLiteral("%1,%2 %3x%4 in %5x%6")
                                .arg(window.frameGeometry().x())
                                .arg(window.frameGeometry().y())
                                .arg(window.frameGeometry().width())
                                .arg(window.frameGeometry().height())
                                .arg(free.width())
                                .arg(free.height())));
        QVERIFY(window.width() >= free.width() * 8 / 10);
        QVERIFY(window.height() >= free.height() * 8 / 10);
        const QSize least = window.minimumSizeHint();
        QVERIFY2(
            least.width() <= 1366 - 16 && least.height() <= 768 - 80,
            qPrintable(QStringLiteral("minimum %1x%2").arg(least.width()).arg(least.height())));
    }

    // With the sample open, on every tab: both docks and the status bar are on screen at
    // a usable width, and no table scrolls sideways.
    void everyTabFitsWithTheSampleOpen() {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({sample_});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window.breakdownTab()->ready(), 30000);
        window.compareTab()->compare(window.runList()->run(0), window.runList()->run(1));
        QTRY_VERIFY_WITH_TIMEOUT(window.compareTab()->diff().has_value(), 30000);
        const QRect free = free_area(window);
        for (int i = 0; i < window.tabs()->count(); ++i) {
            window.tabs()->setCurrentIndex(i);
            QTest::qWait(50);
            const QString tab = window.tabs()->tabText(i);
            QVERIFY2(free.contains(window.frameGeometry()), qPrintable(tab));
            for (auto* dock : window.findChildren<QDockWidget*>()) {
                QVERIFY2(dock->isVisible(), qPrintable(dock->objectName()));
                QVERIFY2(outside(dock, window).isEmpty(),
                         qPrintable(tab + QStringLiteral(": ") + outside(dock, window)));
                QVERIFY2(
                    dock->width() >= 160,
                    qPrintable(
                        QStringLiteral("%1 %2 px").arg(dock->objectName()).arg(dock->width())));
            }
            QVERIFY(window.statusBar()->isVisible());
            QVERIFY2(outside(window.statusBar(), window).isEmpty(),
                     qPrintable(outside(window.statusBar(), window)));
            // Tables elide rather than scroll sideways (the kernel table of Compare keeps
            // its names frozen while its numbers scroll, on purpose).
            for (auto* table : window.tabs()->currentWidget()->findChildren<QTableView*>()) {
                if (!table->isVisible() || table->objectName() == QStringLiteral("frozenColumn") ||
                    table == window.compareTab()->kernelView() ||
                    table->parentWidget() == window.compareTab()->kernelView())
                    continue;
                QVERIFY2(!table->horizontalScrollBar()->isVisible(),
                         qPrintable(tab + QStringLiteral(": a table scrolls sideways")));
                int columns = 0;
                for (int c = 0; c < table->model()->columnCount(); ++c)
                    columns += table->columnWidth(c);
                QVERIFY2(columns <= table->viewport()->width() + 2,
                         qPrintable(QStringLiteral("%1: columns %2 px in %3 px")
                                        .arg(tab)
                                        .arg(columns)
                                        .arg(table->viewport()->width())));
            }
        }
        // The run list elides long names instead of scrolling sideways.
        QVERIFY(!window.runListView()->horizontalScrollBar()->isVisible());
        // The verdict's rules, thresholds included, within the dock's width.
        auto* scroll = window.findChild<QScrollArea*>(QStringLiteral("attribution_scroll"));
        QVERIFY(scroll != nullptr);
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        // The rule table inside the verdict's box: as laid out at the panel's width (less the
        // box's frame), no wider than that.
        QTextDocument verdict;
        verdict.setHtml(window.attributionPanel()->verdictText());
        const int room = window.attributionPanel()->width() - 40;
        verdict.setTextWidth(room);
        QVERIFY2(
            verdict.idealWidth() <= room,
            qPrintable(QStringLiteral("verdict %1 px in %2").arg(verdict.idealWidth()).arg(room)));
        QVERIFY2(window.attributionPanel()->width() <= scroll->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2")
                                .arg(window.attributionPanel()->width())
                                .arg(scroll->viewport()->width())));
    }

    // The size and docks are kept per screen size: what was left on another screen size
    // does not come back here, and this screen's does.
    void stateIsKeptPerScreenSize() {
        const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
        const QString here =
            QStringLiteral("window/%1x%2").arg(screen.width()).arg(screen.height());
        QSettings().remove(here);
        {
            ui::MainWindow other_screen;  // as if saved on a 3840x2160 monitor
            other_screen.resize(3000, 1900);
            QSettings().setValue(QStringLiteral("window/3840x2160/geometry"),
                                 other_screen.saveGeometry());
        }
        QSize closed;
        {
            ui::MainWindow window;
            QVERIFY2(window.width() < screen.width() && window.height() < screen.height(),
                     qPrintable(QStringLiteral("%1x%2").arg(window.width()).arg(window.height())));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.resize(screen.width() * 3 / 4, screen.height() * 3 / 4);
            closed = window.size();
            window.close();
        }
        QVERIFY(QSettings().contains(here + QStringLiteral("/geometry")));
        QVERIFY(QSettings().contains(here + QStringLiteral("/state")));
        ui::MainWindow again;
        QCOMPARE(again.size(), closed);
    }
};

int main(int argc, char** argv) {
    // Offscreen, a screen of the wanted size (the plugin's configfile option).
    static QTemporaryDir config_dir;
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (platform.isEmpty() || platform == "offscreen") {
        const QSize size = wanted_screen();
        QFile config(config_dir.filePath(QStringLiteral("screen.json")));
        if (!config.open(QIODevice::WriteOnly)) return 2;
        config.write(QStringLiteral("{\"screens\":[{\"name\":\"test\",\"x\":0,\"y\":0,\"width\":%1,"
                                    "\"height\":%2,\"logicalDpi\":96,\"logicalBaseDpi\":96,"
                                    "\"dpr\":1}]}")
                         .arg(size.width())
                         .arg(size.height())
                         .toUtf8());
        config.close();
        qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.fileName().toUtf8());
    }
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    WindowFitTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "window_fit_test.moc"
