// Comparing runs that are already open, through the real window: the A and B boxes of
// the Compare tab and the runs list's menu, on the sample's two runs of one file (a
// cost model of the same decode on an H100 and an H200).
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QMenu>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "support/test_settings.h"
#include "ui/compare/compare_tab.h"
#include "ui/shared/run_list_model.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/window/main_window.h"
#include "ui/window/sample_run.h"

using namespace tokenscope;

namespace {

QAction* action(QMenu* menu, const QString& text) {
    for (QAction* a : menu->actions())
        if (a->text().remove(QLatin1Char('&')) == text) return a;
    return nullptr;
}

int pick_index(const QComboBox* box, const QString& gpu) {
    for (int i = 0; i < box->count(); ++i)
        if (box->itemText(i).contains(gpu)) return i;
    return -1;
}

}  // namespace

class CompareOpenRunsTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString sample_;

    // The sample open: row 0 the H100 run, row 1 the H200 run, both from one file.
    void open(ui::MainWindow& window) {
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({sample_});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        QCOMPARE(window.runList()->rowCount(), 2);
        QVERIFY(window.runList()->run(0).name().contains(QStringLiteral("H100")));
        QVERIFY(window.runList()->run(1).name().contains(QStringLiteral("H200")));
        QCOMPARE(window.runList()->run(0).path, window.runList()->run(1).path);
    }

  private slots:
    void initTestCase() {
        test::use_test_settings(QStringLiteral("compare_open_runs_test"));
        QVERIFY(dir_.isValid());
        sample_ = dir_.filePath(QStringLiteral("sample.tokenscope"));
        QVERIFY(QFile::copy(ui::SampleRun::path(), sample_));
    }

    // The Compare tab's boxes list every open run; picking A and B compares them.
    void pickingAAndBOnTheCompareTab() {
        ui::MainWindow window;
        window.resize(1366, 768);
        open(window);
        ui::CompareTab* tab = window.compareTab();
        QVERIFY(tab->showsEmptyState());
        QVERIFY(tab->pickA()->isVisibleTo(tab));
        QCOMPARE(tab->pickA()->count(), 3);  // "(choose a run)" and the two runs
        QSignalSpy ready(tab, &ui::CompareTab::diffReady);
        const int h200 = pick_index(tab->pickA(), QStringLiteral("H200"));
        const int h100 = pick_index(tab->pickB(), QStringLiteral("H100"));
        QVERIFY(h200 > 0 && h100 > 0);
        tab->pickA()->setCurrentIndex(h200);
        emit tab->pickA()->activated(h200);
        QVERIFY(tab->showsEmptyState());  // B not chosen yet
        tab->pickB()->setCurrentIndex(h100);
        emit tab->pickB()->activated(h100);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QVERIFY(tab->runA().name().contains(QStringLiteral("H200")));
        QVERIFY(tab->runB().name().contains(QStringLiteral("H100")));
        QVERIFY(tab->diff()->steps.size() > 0);
        // Swap shows in the boxes too.
        tab->swap();
        QVERIFY(tab->pickA()->currentText().contains(QStringLiteral("H100")));
        QVERIFY(tab->pickB()->currentText().contains(QStringLiteral("H200")));
    }

    // The runs list's menu: Set as A on one run, Set as B on the other, then Compare with.
    void settingAAndBFromTheRunsList() {
        ui::MainWindow window;
        window.resize(1366, 768);
        open(window);
        ui::CompareTab* tab = window.compareTab();
        QSignalSpy ready(tab, &ui::CompareTab::diffReady);
        std::unique_ptr<QMenu> first(window.runMenu(1));
        QAction* set_a = action(first.get(), QStringLiteral("Set as A"));
        QVERIFY(set_a != nullptr);
        set_a->trigger();
        QCOMPARE(window.tabs()->currentWidget(), tab);
        QVERIFY(tab->showsEmptyState());
        QVERIFY(tab->pickA()->currentText().contains(QStringLiteral("H200")));
        std::unique_ptr<QMenu> second(window.runMenu(0));
        action(second.get(), QStringLiteral("Set as B"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QVERIFY(tab->runA().name().contains(QStringLiteral("H200")));
        QVERIFY(tab->runB().name().contains(QStringLiteral("H100")));
        QVERIFY(tab->pickB()->currentText().contains(QStringLiteral("H100")));

        window.tabs()->setCurrentWidget(window.timelineTab());
        std::unique_ptr<QMenu> third(window.runMenu(0));
        QAction* with = action(third.get(), QStringLiteral("Compare with"));
        QVERIFY(with != nullptr && with->menu() != nullptr);
        QCOMPARE(with->menu()->actions().size(), 1);  // the one other run
        with->menu()->actions().first()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 30000);
        QCOMPARE(window.tabs()->currentWidget(), tab);
        QVERIFY(tab->runA().name().contains(QStringLiteral("H100")));
        QVERIFY(tab->runB().name().contains(QStringLiteral("H200")));
    }
};

QTEST_MAIN(CompareOpenRunsTest)
#include "compare_open_runs_test.moc"
