// A foreign trace whose iteration marker no preset knows (issue 23 item 7): the Breakdown
// tab and the Attribution dock say so where the breakdown would be, list the presets
// tried and offer the Step pattern field; Apply opens the file again with the pattern, on
// the window's own open path, replacing that file's run and keeping the others.
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <string>

#include "support/hand_store.h"
#include "support/test_settings.h"
#include "ui/breakdown/attribution_panel.h"
#include "ui/breakdown/breakdown_plot.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/breakdown/step_pattern_panel.h"
#include "ui/shared/run_list_model.h"
#include "ui/window/main_window.h"

using namespace tokenscope;

namespace {

constexpr int kIterations = 3;

// A PyTorch-profiler (Kineto) trace of an engine of our own: each iteration is a user
// annotation "my_iteration_N" (no preset's shape) around one kernel launch, and the
// kernel runs on the GPU inside it.
std::string kineto_trace() {
    std::string events =
        R"({"ph":"M","name":"process_name","pid":1,"args":{"name":"python"}},)"
        R"({"ph":"M","name":"thread_name","pid":1,"tid":7,"args":{"name":"main"}})";
    for (int i = 0; i < kIterations; ++i) {
        const std::string t0 = std::to_string(1000 * (i + 1));
        const std::string corr = std::to_string(100 + i);
        auto at = [&](int us) { return std::to_string(1000 * (i + 1) + us); };
        events += R"(,{"ph":"X","cat":"user_annotation","name":"my_iteration_)" +
                  std::to_string(i + 3) + R"(","pid":1,"tid":7,"ts":)" + t0 +
                  R"(,"dur":800})"
                  R"(,{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,)"
                  R"("tid":7,"ts":)" +
                  at(10) + R"(,"dur":8,"args":{"correlation":)" + corr +
                  R"(}},{"ph":"X","cat":"kernel","name":"gemv_kernel","pid":0,"tid":7,)"
                  R"("ts":)" +
                  at(50) + R"(,"dur":500,"args":{"device":0,"stream":7,"correlation":)" + corr +
                  "}}";
    }
    return R"({"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA H100 80GB HBM3",)"
           R"("totalGlobalMem":85045379072,"computeMajor":9,"computeMinor":0,"numSms":132}],)"
           R"("baseTimeNanoseconds":1700000000000000000,"traceEvents":[)" +
           events + "]}";
}

}  // namespace

class StepPatternPanelTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString trace_, store_;

    static bool shown(QWidget* w, QWidget* ancestor) { return w->isVisibleTo(ancestor); }

    // Types `pattern` into the panel's field and presses Apply.
    static void apply(ui::StepPatternPanel* panel, const QString& pattern) {
        panel->patternBox()->setEditText(pattern);
        panel->applyButton()->click();
    }

  private slots:
    void initTestCase() {
        test::use_test_settings(QStringLiteral("step_pattern_panel_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        trace_ = dir_.filePath(QStringLiteral("engine.pt.trace.json"));
        QFile file(trace_);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const std::string bytes = kineto_trace();
        file.write(bytes.data(), static_cast<qint64>(bytes.size()));
        file.close();
        store_ = test::write_hand_store(dir_, QStringLiteral("other.tokenscope"), "other run");
    }

    // The panel's presets come from the run's no_steps diagnostic; its list offers each
    // preset's marker as a regex (beside the engines it is for), and picking one puts the
    // regex alone in the field.
    void noMarkerMatchedShowsThePanel() {
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({trace_});
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(window.runList()->rowCount(), 1);
        const ui::OpenRun run = window.runList()->run(0);
        QVERIFY(run.data->steps.empty());
        QVERIFY(ui::StepPatternPanel::wanted(run));

        ui::BreakdownTab* tab = window.breakdownTab();
        ui::StepPatternPanel* panel = tab->stepPatternPanel();
        QVERIFY(shown(panel, tab));
        QVERIFY(!shown(tab->plot(), tab));  // the panel is where the breakdown would be
        const QString text = panel->message();
        QVERIFY2(text.contains(QStringLiteral("No iterations found: no marker in this trace "
                                              "matched a preset")),
                 qPrintable(text));
        for (const char* preset : {"vllm", "vllm-sq", "vllm-v0", "vllm-python", "tensorrt-llm",
                                   "sglang", "pytorch", "generic"})
            QVERIFY2(ui::StepPatternPanel::presetsTried(run).contains(QLatin1String(preset)),
                     preset);
        QVERIFY2(text.contains(QStringLiteral("Presets tried: vllm, vllm-sq, vllm-v0, "
                                              "vllm-python, tensorrt-llm, sglang, pytorch, "
                                              "generic.")),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("--")), qPrintable(text));  // no CLI flags
        // The dock has the same panel.
        ui::AttributionPanel* dock = window.attributionPanel();
        QVERIFY(shown(dock->stepPatternPanel(), dock));
        // No verdict, but the sentence why.
        QTRY_VERIFY(dock->verdictText().contains(QStringLiteral("No verdict")));
        QVERIFY2(dock->verdictText().contains(QStringLiteral("no marker")),
                 qPrintable(dock->verdictText()));
        QVERIFY2(!dock->verdictText().contains(QStringLiteral("<table>")),
                 qPrintable(dock->verdictText()));
        QTRY_VERIFY(tab->verdictText().contains(QStringLiteral("No verdict")));

        QComboBox* box = panel->patternBox();
        QCOMPARE(box, tab->findChild<QComboBox*>(QStringLiteral("stepPattern")));
        QVERIFY(box->isEditable());
        QVERIFY(box->currentText().isEmpty());
        QStringList regexes;
        for (int i = 0; i < box->count(); ++i) regexes << box->itemText(i);
        for (const char* shape : {"^execute_", R"(gpu_model_runner\.py\(\d+\): execute_model)",
                                  R"(^step\[)", "_forward_step", "^ProfilerStep#"})
            QVERIFY2(regexes.contains(QLatin1String(shape)), shape);
        const int profiler = static_cast<int>(regexes.indexOf(QStringLiteral("^ProfilerStep#")));
        box->setCurrentIndex(profiler);
        QCOMPARE(box->currentText(), QStringLiteral("^ProfilerStep#"));
        // The dock's panel leaves the long paragraph to the Breakdown tab.
        QVERIFY(dock->stepPatternPanel()->message().size() < text.size());
    }

    // A bad regex is reported next to the field; nothing is opened, the run stays.
    void badPatternKeepsTheRun() {
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({trace_});
        QTRY_COMPARE(opened.count(), 1);
        const auto before = window.runList()->run(0).data;
        ui::StepPatternPanel* panel = window.breakdownTab()->stepPatternPanel();
        QSignalSpy requested(panel, &ui::StepPatternPanel::applyRequested);
        apply(panel, QStringLiteral("my_iteration_(\\d+"));
        QVERIFY2(panel->error().startsWith(QStringLiteral("Not a valid regular expression")),
                 qPrintable(panel->error()));
        QCOMPARE(requested.count(), 0);
        QVERIFY(!window.busy());
        QCOMPARE(window.runList()->rowCount(), 1);
        QCOMPARE(window.runList()->run(0).data, before);
        QVERIFY(shown(panel, window.breakdownTab()));
        // Typing again clears the message; an empty field says what to do.
        apply(panel, QString());
        QVERIFY2(panel->error().contains(QStringLiteral("Type a step pattern")),
                 qPrintable(panel->error()));
        panel->patternBox()->setEditText(QStringLiteral("x"));
        QVERIFY(panel->error().isEmpty());
    }

    // Apply opens the file again with the pattern: its run is replaced, in its row, by one
    // with the three iterations; the other file's run is kept; the panels are gone.
    void applyingAPatternFramesTheIterations() {
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({trace_});
        window.openFiles({store_});
        QTRY_COMPARE(opened.count(), 2);
        QCOMPARE(window.runList()->rowCount(), 2);
        const auto other = window.runList()->run(1).data;
        // The trace's run is current again, as a user would select it.
        window.runListView()->setCurrentIndex(window.runList()->index(0));
        ui::BreakdownTab* tab = window.breakdownTab();
        ui::StepPatternPanel* panel = tab->stepPatternPanel();
        QVERIFY(shown(panel, tab));

        QSignalSpy ready(tab, &ui::BreakdownTab::breakdownReady);
        // Enter in the field applies, as the button does.
        panel->patternBox()->setEditText(QStringLiteral("^my_iteration"));
        QTest::keyClick(panel->patternBox()->lineEdit(), Qt::Key_Return);
        QTRY_COMPARE(opened.count(), 3);
        QCOMPARE(window.runList()->rowCount(), 2);
        const ui::OpenRun run = window.runList()->run(0);
        QCOMPARE(run.path, trace_);
        QCOMPARE(run.step_pattern, QStringLiteral("^my_iteration"));
        QCOMPARE(run.data->steps.size(), std::size_t(kIterations));
        QCOMPARE(window.runList()->run(1).data, other);
        QVERIFY2(window.lastMessage().contains(QStringLiteral("3 steps")),
                 qPrintable(window.lastMessage()));
        QVERIFY(!shown(panel, tab));
        QVERIFY(!shown(window.attributionPanel()->stepPatternPanel(), window.attributionPanel()));
        QTRY_VERIFY(ready.count() > 0 && tab->ready());
        QVERIFY(shown(tab->plot(), tab));
        QCOMPARE(tab->plot()->shownSteps(), kIterations);
        QVERIFY2(!tab->verdictText().contains(QStringLiteral("No verdict")),
                 qPrintable(tab->verdictText()));

        // A pattern that matches nothing: the panel again, naming that pattern.
        window.reopenWithStepPattern(trace_, QStringLiteral("^nothing_here"));
        QTRY_COMPARE(opened.count(), 4);
        QVERIFY(shown(panel, tab));
        QVERIFY2(
            panel->message().contains(QStringLiteral("matched the step pattern ^nothing_here")),
            qPrintable(panel->message()));
        QCOMPARE(panel->patternBox()->currentText(), QStringLiteral("^nothing_here"));
        QCOMPARE(window.runList()->rowCount(), 2);
    }
};

QTEST_MAIN(StepPatternPanelTest)
#include "step_pattern_panel_test.moc"
