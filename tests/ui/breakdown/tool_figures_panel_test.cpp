// The Breakdown tab on a load generator's results (LLMPerf's per-request records with its
// summary beside them, ../shared/fixtures/clients): a tab of the tool's own figures beside
// ours. The expected figures are read from LLMPerf's summary file here.
#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include "../hand_run.h"
#include "support/fixtures.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/breakdown/tool_figures_model.h"
#include "ui/breakdown/tool_figures_panel.h"
#include "ui/window/run_loader.h"

using namespace tokenscope;

class ToolFiguresPanelTest : public QObject {
    Q_OBJECT

  private slots:
    void llmperfFiguresSitBesideOurs() {
        const char* records = "clients/llmperf_individual_together_llama2_70b.json";
        const char* summary = "clients/llmperf_summary_together_llama2_70b.json";
        TOKENSCOPE_QT_NEED_FIXTURE(records);
        TOKENSCOPE_QT_NEED_FIXTURE(summary);
        QFile file(QString::fromStdString(test::fixture_path(summary)));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject s = QJsonDocument::fromJson(file.readAll()).object();
        const double tool_itl_ns =
            s.value(QStringLiteral("results_inter_token_latency_s_mean")).toDouble() * 1e9;
        const double tool_ttft_ns = s.value(QStringLiteral("results_ttft_s_mean")).toDouble() * 1e9;

        auto runs = ui::RunLoader::load(test::fixture_path(records), {});
        QVERIFY(!runs.empty());
        ui::BreakdownTab tab;
        auto* panel = tab.toolFigures();
        QAbstractItemModelTester tester(panel->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy shown(panel, &ui::ToolFiguresPanel::availabilityChanged);
        tab.setRun(test::open_run(std::move(runs.front())));
        QTRY_VERIFY_WITH_TIMEOUT(panel->model()->rowCount() > 0, 10000);
        QVERIFY(!shown.isEmpty() && shown.last()[0].toBool());
        const auto& rows = panel->model()->rows();
        bool itl = false, ttft = false;
        for (const auto& r : rows) {
            if (r.tool.metric == "itl" && r.tool.stat == "mean") {
                itl = true;
                QVERIFY(std::abs(r.tool.value_ns - tool_itl_ns) < 1.0);
                QVERIFY(r.ours_ns && *r.ours_ns < r.tool.value_ns);  // TTFT not spread in ours
                QVERIFY(!r.flagged);  // LLMPerf's own rule explains the difference
            }
            if (r.tool.metric == "ttft" && r.tool.stat == "mean") {
                ttft = true;
                QVERIFY(std::abs(r.tool.value_ns - tool_ttft_ns) < 1.0);
                QVERIFY(r.ours_ns && std::abs(*r.ours_ns - tool_ttft_ns) < 1e-3 * tool_ttft_ns);
            }
        }
        QVERIFY(itl && ttft);
        // Results have no activity to attribute: the tab opens on the figures.
        auto* tabs = tab.findChild<QTabWidget*>(QStringLiteral("breakdownTables"));
        QVERIFY(tabs != nullptr);
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(panel));
    }

    void aTraceHasNoSuchTab() {
        ui::BreakdownTab tab;
        QSignalSpy shown(tab.toolFigures(), &ui::ToolFiguresPanel::availabilityChanged);
        tab.setRun(test::open_run(test::hand_run()));
        QVERIFY(!shown.isEmpty());
        QVERIFY(!shown.last()[0].toBool());
        QCOMPARE(tab.toolFigures()->model()->rowCount(), 0);
    }
};

QTEST_MAIN(ToolFiguresPanelTest)
#include "tool_figures_panel_test.moc"
