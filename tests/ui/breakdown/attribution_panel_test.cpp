// The attribution dock's verdict: computed off the GUI thread, replaced when the run
// changes, and never overwritten by the assessment of a run no longer shown.
#include <QSignalSpy>
#include <QTest>

#include "../hand_run.h"
#include "../settle.h"
#include "ui/breakdown/attribution_panel.h"

using namespace tokenscope;

class AttributionPanelTest : public QObject {
    Q_OBJECT
  private slots:
    void showsTheVerdictWithItsRules() {
        ui::AttributionPanel panel;
        QSignalSpy ready(&panel, &ui::AttributionPanel::verdictReady);
        panel.setRun(test::open_run(test::hand_run("a"), "/x/a.tokenscope"));
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        // The hand-made run is mixed (breakdown_tab_test works its numbers out).
        QVERIFY2(panel.verdictText().contains(QStringLiteral("<b>mixed</b>")),
                 qPrintable(panel.verdictText()));
        // Plain words with units, each threshold beside its value (issue 26).
        const QString text = panel.verdictText();
        QVERIFY2(text.contains(QStringLiteral("P95 launch delay")) &&
                     text.contains(QStringLiteral("P95 scheduling per step")) &&
                     text.contains(QStringLiteral("Fires above")) &&
                     !text.contains(QStringLiteral("_ns")),
                 qPrintable(text));
        QVERIFY2(
            text.contains(QStringLiteral("5.000 ms")) && text.contains(QStringLiteral("75.0 %")),
            qPrintable(text));
    }

    void aRunClosedMidAssessmentLeavesNoStaleVerdict() {
        ui::AttributionPanel panel;
        QSignalSpy ready(&panel, &ui::AttributionPanel::verdictReady);
        panel.setRun(test::open_run(test::hand_run("a"), "/x/a.tokenscope"));
        panel.setRun(ui::OpenRun{});  // stops the assessment just started
        QCOMPARE(panel.verdictText(), QStringLiteral("No run open."));
        QVERIFY(test::settle());  // the stopped job ended; whatever it sent, delivered
        QCOMPARE(ready.count(), 0);
        QCOMPARE(panel.verdictText(), QStringLiteral("No run open."));
    }

    void theLastRunSetWins() {
        ui::AttributionPanel panel;
        QSignalSpy ready(&panel, &ui::AttributionPanel::verdictReady);
        // Two runs whose verdicts differ: A is a cost-model run, B a measured one.
        const ui::OpenRun a =
            test::open_run(test::hand_run("a", trace::Source::Model), "/x/a.tokenscope");
        panel.setRun(a);
        panel.setRun(test::open_run(test::hand_run("b"), "/x/b.tokenscope"));
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1, 30000);
        QVERIFY(test::settle());     // A's assessment, had it not been dropped, is here now
        QCOMPARE(ready.count(), 1);  // only the live run's assessment is shown
        const QString model = QStringLiteral("Model run");
        QVERIFY2(panel.verdictText().contains(QStringLiteral("<b>mixed</b>")) &&
                     !panel.verdictText().contains(model),
                 qPrintable(panel.verdictText()));
        // A's own verdict says it is a model, so the check above tells the runs apart.
        panel.setRun(a);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 30000);
        QVERIFY2(panel.verdictText().contains(model), qPrintable(panel.verdictText()));
    }
};

QTEST_MAIN(AttributionPanelTest)
#include "attribution_panel_test.moc"
