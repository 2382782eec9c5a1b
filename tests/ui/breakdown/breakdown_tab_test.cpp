// The Breakdown tab: one stacked bar per step whose parts are the attribution
// worked out by hand, the ITL floor line, the per-phase table and the verdict rules.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QSignalSpy>
#include <QTest>

#include "../hand_run.h"
#include "ui/breakdown/breakdown_plot.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/breakdown/phase_summary_model.h"
#include "ui/breakdown/verdict_rule_model.h"

using namespace tokenscope;
using analysis::Category;

class BreakdownTabTest : public QObject {
    Q_OBJECT

    static ui::OpenRun floor_run() {
        trace::RunData run = test::hand_run("breakdown run");
        run.steps[1].floor_ns = 20000;  // only the decode step has a floor
        return test::open_run(std::move(run));
    }

    static void open(ui::BreakdownTab& tab, const ui::OpenRun& run) {
        QSignalSpy ready(&tab, &ui::BreakdownTab::breakdownReady);
        tab.setRun(run);
        QTRY_COMPARE(ready.count(), 1);
    }

    static double bar(const ui::BreakdownTab& tab, Category c, int step) {
        return tab.plot()->bars(c)->data()->at(step)->value;
    }

  private slots:
    // As a real H200 capture: one 570 ms prefill step and decode steps of 6 ms.
    // Decode opens at a readable scale; "All steps" brings the prefill back.
    void longPrefillDoesNotFlattenDecode() {
        trace::RunData run = test::hand_run("long prefill");
        run.steps.clear();
        run.steps.push_back({1, 0, trace::Phase::Prefill, 0, 570'000'000, 0});
        for (int k = 1; k <= 20; ++k)
            run.steps.push_back({1, k, trace::Phase::Decode, 570'000'000 + (k - 1) * 6'000'000LL,
                                 570'000'000 + k * 6'000'000LL, 0});
        ui::BreakdownTab tab;
        open(tab, test::open_run(std::move(run)));
        auto* filter = tab.findChild<QComboBox*>(QStringLiteral("breakdownPhaseFilter"));
        QVERIFY(filter != nullptr);
        QCOMPARE(filter->currentData().toInt(), int(trace::Phase::Decode));
        QCOMPARE(tab.plot()->shownSteps(), 20);
        // Axis in ms: the decode steps (6 ms) fill it, with a little headroom.
        QVERIFY2(tab.plot()->axisTop() < 10.0, qPrintable(QString::number(tab.plot()->axisTop())));
        filter->setCurrentIndex(filter->findData(-1));
        QCOMPARE(tab.plot()->shownSteps(), 21);
        QVERIFY(tab.plot()->axisTop() > 570.0);
        filter->setCurrentIndex(filter->findData(int(trace::Phase::Prefill)));
        QCOMPARE(tab.plot()->shownSteps(), 1);
    }

    // Without a dwarfing prefill, every step is shown.
    void shortPrefillShowsAllSteps() {
        ui::BreakdownTab tab;
        open(tab, floor_run());
        auto* filter = tab.findChild<QComboBox*>(QStringLiteral("breakdownPhaseFilter"));
        QVERIFY(filter != nullptr);
        QCOMPARE(filter->currentData().toInt(), -1);
        QCOMPARE(tab.plot()->shownSteps(), 2);
    }

    void barsAreTheHandAttribution() {
        ui::BreakdownTab tab;
        open(tab, floor_run());
        for (Category c : analysis::kCategories)
            QCOMPARE(tab.plot()->bars(c)->data()->size(), 2);  // one bar per step
        // Step 0 [0, 25000): the host range "decode step" keeps the driving thread busy
        // throughout; the compute-bound kernel [2000, 12000) outranks it (10000 ns), the
        // H2D copy [14000, 20000) is PCIe (6000 ns); the rest, 9000 ns, is CPU.
        QCOMPARE(bar(tab, Category::GpuCompute, 0), 0.010);
        QCOMPARE(bar(tab, Category::GpuMemory, 0), 0.0);
        QCOMPARE(bar(tab, Category::Nvlink, 0), 0.0);
        QCOMPARE(bar(tab, Category::Pcie, 0), 0.006);
        QCOMPARE(bar(tab, Category::Cpu, 0), 0.009);
        QCOMPARE(bar(tab, Category::Scheduling, 0), 0.0);
        // Step 1 [25000, 50000): nothing runs: all scheduling.
        QCOMPARE(bar(tab, Category::Scheduling, 1), 0.025);
        QCOMPARE(bar(tab, Category::GpuCompute, 1), 0.0);
        // Stacked in priority order, so the bar's top is the step's duration.
        QCOMPARE(tab.plot()->bars(Category::Scheduling)->barBelow(),
                 tab.plot()->bars(Category::Cpu));
        QCOMPARE(tab.plot()->bars(Category::GpuCompute)->barBelow(), nullptr);
    }

    void floorLineShowsKnownFloors() {
        ui::BreakdownTab tab;
        open(tab, floor_run());
        QCPGraph* floor = tab.plot()->floorLine();
        QVERIFY(floor->visible());
        QCOMPARE(floor->data()->size(), 1);
        QCOMPARE(floor->data()->at(0)->key, 1.0);
        QCOMPARE(floor->data()->at(0)->value, 0.020);
        tab.setUnit(ui::plots::TimeUnit::Microseconds);
        QCOMPARE(floor->data()->at(0)->value, 20.0);
        QCOMPARE(bar(tab, Category::Cpu, 0), 9.0);
    }

    void phaseTableAndVerdict() {
        ui::BreakdownTab tab;
        QAbstractItemModelTester phases(tab.phaseModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester rules(tab.ruleModel(),
                                       QAbstractItemModelTester::FailureReportingMode::QtTest);
        open(tab, floor_run());
        auto* pm = tab.phaseModel();
        QCOMPARE(pm->rowCount(), 2);
        QCOMPARE(pm->index(0, ui::PhaseSummaryModel::Phase).data().toString(),
                 QStringLiteral("prefill"));
        QCOMPARE(pm->index(0, ui::PhaseSummaryModel::Steps).data().toString(), QStringLiteral("1"));
        QCOMPARE(pm->index(0, ui::PhaseSummaryModel::Mean).data().toString(),
                 QStringLiteral("0.025 ms"));
        const int pcie = ui::PhaseSummaryModel::FirstCategory + int(Category::Pcie);
        QCOMPARE(pm->index(0, pcie).data(ui::PhaseSummaryModel::SortRole).toDouble(), 6000.0);
        QCOMPARE(pm->index(1, ui::PhaseSummaryModel::Phase).data().toString(),
                 QStringLiteral("decode"));
        // Transfer 6000 / 50000 = 12.0 % < 25 %; GPU 10000 / 50000 = 20 % < 75 %: "mixed".
        QVERIFY2(tab.verdictText().contains(QStringLiteral("<b>mixed</b>")),
                 qPrintable(tab.verdictText()));
        auto* rm = tab.ruleModel();
        QCOMPARE(rm->rowCount(), 6);  // six rules of docs/attribution.md, Verdicts
        QCOMPARE(rm->index(0, ui::VerdictRuleModel::Rule).data().toString(),
                 QStringLiteral("Transfer share (NVLink + PCIe)"));
        QVERIFY(rm->index(0, ui::VerdictRuleModel::Rule)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("transfer_share")));
        // Rules on times in plain words, their values in the unit they name (issue 26).
        QCOMPARE(rm->index(1, ui::VerdictRuleModel::Rule).data().toString(),
                 QStringLiteral("P95 scheduling per step"));
        QCOMPARE(rm->index(2, ui::VerdictRuleModel::Rule).data().toString(),
                 QStringLiteral("P95 launch delay"));
        QVERIFY(rm->index(2, ui::VerdictRuleModel::Threshold)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral(" ms")));
        QCOMPARE(rm->index(0, ui::VerdictRuleModel::Value).data().toString(),
                 QStringLiteral("12.0 %"));
        QCOMPARE(rm->index(0, ui::VerdictRuleModel::Threshold).data().toString(),
                 QStringLiteral("25.0 %"));
        QCOMPARE(rm->index(0, ui::VerdictRuleModel::Fired).data().toString(), QString());
        // Distance to the floor of the one floored step: 25000 - 20000 = 5000 ns.
        QVERIFY2(tab.verdictText().contains(QStringLiteral("P50 0.005 ms")),
                 qPrintable(tab.verdictText()));
    }

    void noRunClears() {
        ui::BreakdownTab tab;
        open(tab, floor_run());
        tab.setRun(ui::OpenRun{});
        QCOMPARE(tab.plot()->bars(Category::Cpu)->data()->size(), 0);
        QCOMPARE(tab.phaseModel()->rowCount(), 0);
        QVERIFY(!tab.ready());
    }
};

QTEST_MAIN(BreakdownTabTest)
#include "breakdown_tab_test.moc"
