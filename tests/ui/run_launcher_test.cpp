// The run launcher end to end: the dialog's fields, a real tokenscope-cli child
// that finishes (and the run opens) or is cancelled (and nothing is kept).
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "store/store_reader.h"
#include "ui/capture_process.h"
#include "ui/main_window.h"
#include "ui/run_launcher_dialog.h"
#include "ui/run_list_model.h"

using namespace tokenscope;

class RunLauncherTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    static void setWorkload(ui::RunLauncherDialog& d, const QString& preset, int batch, int prompt,
                            int tokens) {
        d.presetBox()->setCurrentText(preset);
        d.batchBox()->setValue(batch);
        d.promptBox()->setValue(prompt);
        d.tokensBox()->setValue(tokens);
    }

    // The runs stored in `path` (none when there is no file); false with the
    // reader's message when the file cannot be read.
    static bool readRuns(const QString& path, std::vector<store::RunSummary>& runs,
                         QString& error) {
        runs.clear();
        if (!QFile::exists(path)) return true;
        try {
            runs = store::StoreReader(path.toStdString()).runs();
            return true;
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
            return false;
        }
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("TokenscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("run_launcher_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
#ifdef TOKENSCOPE_CLI_PATH
        qputenv("TOKENSCOPE_CLI", TOKENSCOPE_CLI_PATH);
#endif
        QVERIFY2(QFile::exists(ui::CaptureProcess::findCli()),
                 "tokenscope-cli not found; build it or set TOKENSCOPE_CLI");
    }

    void shapeIsShownAndStrategyOptionsFollowTheStrategy() {
        ui::RunLauncherDialog d;
        d.presetBox()->setCurrentText(QStringLiteral("llama-8b"));
        // Llama 3.1 8B's published configuration.
        const QString shape = d.shapeLabel()->text();
        for (const char* part :
             {"32 layers", "hidden 4096", "32 heads (8 KV, dim 128)", "FFN 14336"})
            QVERIFY2(shape.contains(QLatin1String(part)), qPrintable(shape));
        d.strategyBox()->setCurrentText(QStringLiteral("topk"));
        QVERIFY(d.topKBox()->isEnabled());
        QVERIFY(!d.beamsBox()->isEnabled());
        QVERIFY(!d.gammaBox()->isEnabled());
        d.strategyBox()->setCurrentText(QStringLiteral("speculative"));
        QVERIFY(!d.topKBox()->isEnabled());
        QVERIFY(d.draftLayersBox()->isEnabled());
        QVERIFY(d.gammaBox()->isEnabled());
        d.strategyBox()->setCurrentText(QStringLiteral("beam"));
        d.beamsBox()->setValue(3);
        const QStringList args = d.arguments();
        QVERIFY(args.join(u' ').contains(QLatin1String("--strategy beam")));
        QVERIFY(args.join(u' ').contains(QLatin1String("--beams 3")));
        QVERIFY(!args.contains(QLatin1String("--top-k")));
        QVERIFY(!args.contains(QLatin1String("--gamma")));
        QVERIFY(args.contains(QLatin1String("--gpu")));  // the model backend's preset
    }

    void cudaIsDisabledWithItsReason() {
        ui::RunLauncherDialog d;
        QCOMPARE(d.backendBox()->currentText(), QStringLiteral("model"));
        const int cuda = d.backendBox()->findText(QStringLiteral("cuda"));
        QVERIFY(cuda >= 0);
        const QModelIndex item = d.backendBox()->model()->index(cuda, 0);
        QVERIFY(!d.backendBox()->model()->flags(item).testFlag(Qt::ItemIsEnabled));
        QVERIFY(!item.data(Qt::ToolTipRole).toString().isEmpty());
        QVERIFY2(d.backendNote()->text().contains(QLatin1String("cuda unavailable")),
                 qPrintable(d.backendNote()->text()));
        // Forced onto it anyway, the dialog refuses to start and says why.
        d.backendBox()->setCurrentIndex(cuda);
        QVERIFY(!d.gpuBox()->isEnabled());
        QVERIFY(!d.startButton()->isEnabled());
        QVERIFY(!d.start());
        QVERIFY(d.statusLabel()->text().contains(QLatin1String("cuda")));
        QVERIFY(!d.process()->running());
    }

    void badOptionsFailWithTheCliMessage() {
        ui::CaptureProcess process;
        QSignalSpy failed(&process, &ui::CaptureProcess::failed);
        QSignalSpy finished(&process, &ui::CaptureProcess::finished);
        QVERIFY(process.start({QStringLiteral("--preset"), QStringLiteral("no-such-shape"),
                               QStringLiteral("--out"),
                               dir_.filePath(QStringLiteral("bad.tokenscope"))}));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QCOMPARE(finished.count(), 0);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(QLatin1String("no-such-shape")), qPrintable(message));
        QVERIFY(!process.running());
    }

    void missingCliFails() {
        ui::CaptureProcess process;
        process.setProgram(dir_.filePath(QStringLiteral("not-a-program")));
        QSignalSpy failed(&process, &ui::CaptureProcess::failed);
        QVERIFY(process.start({}));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QVERIFY(failed.first().first().toString().contains(QLatin1String("not-a-program")));
    }

    void completedRunOpensInTheWindow() {
        ui::MainWindow window;
        window.show();
        const int before = window.runList()->rowCount();
        ui::RunLauncherDialog* d = window.newRun();
        const QString out = dir_.filePath(QStringLiteral("tiny.tokenscope"));
        setWorkload(*d, QStringLiteral("tiny"), 2, 16, 6);
        d->nameEdit()->setText(QStringLiteral("launcher tiny run"));
        d->outputEdit()->setText(out);
        QSignalSpy progress(d->process(), &ui::CaptureProcess::progress);
        QSignalSpy finished(d->process(), &ui::CaptureProcess::finished);
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        QVERIFY(d->start());
        QVERIFY(d->progressBar()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 60000);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).toString(), out);
        QVERIFY(progress.count() >= 1);
        // The last report is the whole run: done == total.
        QCOMPARE(progress.last().at(0).toLongLong(), progress.last().at(1).toLongLong());
        QCOMPARE(window.runList()->rowCount(), before + 1);
        QCOMPARE(window.runList()->run(before).name(), QStringLiteral("launcher tiny run"));
        QVERIFY(window.windowTitle().contains(QLatin1String("launcher tiny run")));
        std::vector<store::RunSummary> runs;
        QString error;
        QVERIFY2(readRuns(out, runs, error), qPrintable(error));
        QCOMPARE(runs.size(), std::size_t{1});
        QVERIFY(runs.front().info.complete);
        QCOMPARE(static_cast<qint64>(runs.front().info.id), finished.first().at(1).toLongLong());
    }

    void cancelKeepsNoFinishedRun() {
        ui::MainWindow window;
        window.show();
        const int before = window.runList()->rowCount();
        QPointer<ui::RunLauncherDialog> d = window.newRun();
        const QString out = dir_.filePath(QStringLiteral("cancelled.tokenscope"));
        // About 10 s of work, so the cancel lands mid-run.
        setWorkload(*d, QStringLiteral("llama-8b"), 16, 1024, 100000);
        d->outputEdit()->setText(out);
        QSignalSpy progress(d->process(), &ui::CaptureProcess::progress);
        QSignalSpy finished(d->process(), &ui::CaptureProcess::finished);
        QSignalSpy failed(d->process(), &ui::CaptureProcess::failed);
        QSignalSpy cancelled(d->process(), &ui::CaptureProcess::cancelled);
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        QVERIFY(d->start());
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 1, 60000);
        QVERIFY(d->process()->running());
        d->reject();  // the dialog's Cancel while a run is going
        QVERIFY(d->process()->cancelling());
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 15000);
        QCOMPARE(finished.count(), 0);
        QCOMPARE(failed.count(), 0);
        QVERIFY(progress.last().at(0).toLongLong() < progress.last().at(1).toLongLong());
        QTRY_VERIFY(d.isNull());  // closed (and deleted) once the child is gone
        QTest::qWait(300);
        QCOMPARE(opened.count(), 0);
        QCOMPARE(window.runList()->rowCount(), before);
        // SIGTERM makes the CLI abandon the run: not even an incomplete one is left
        // (a SIGKILL after the grace period would leave one, complete = false).
        std::vector<store::RunSummary> runs;
        QString error;
        QVERIFY2(readRuns(out, runs, error), qPrintable(error));
        for (const auto& run : runs) QVERIFY2(!run.info.complete, "a cancelled run is complete");
        QVERIFY(runs.empty());
    }
};

QTEST_MAIN(RunLauncherTest)
#include "run_launcher_test.moc"
