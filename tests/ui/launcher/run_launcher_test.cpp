// The run launcher end to end: the dialog's fields, a real tokenscope-cli child
// that finishes (and the run opens) or is cancelled (and nothing is kept); the
// external-command mode's capture child, its arguments and its driver check.
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "store/store_reader.h"
#include "support/test_settings.h"
#include "ui/launcher/cli_command_process.h"
#include "ui/launcher/external_command.h"
#include "ui/launcher/run_launcher_dialog.h"
#include "ui/shared/run_list_model.h"
#include "ui/window/main_window.h"

using namespace tokenscope;
using namespace Qt::StringLiterals;

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
        tokenscope::test::use_test_settings(QStringLiteral("run_launcher_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
#ifdef TOKENSCOPE_CLI_PATH
        qputenv("TOKENSCOPE_CLI", TOKENSCOPE_CLI_PATH);
#endif
        QVERIFY2(QFile::exists(ui::CliCommandProcess::findCli()),
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

    // A fresh dialog passes what `tokenscope-cli run` does without options: every option
    // it writes (each strategy's too) has the value `run --help` gives as its default,
    // read from the built CLI, so the dialog and the CLI cannot drift apart.
    void freshDialogPassesTheClisDefaults() {
        QProcess cli;
        cli.start(ui::CliCommandProcess::findCli(), {u"run"_s, u"--help"_s});
        QVERIFY(cli.waitForFinished(30000));
        const QString help = QString::fromUtf8(cli.readAllStandardOutput());
        QVERIFY2(help.contains(u"--batch"_s), qPrintable(help));
        ui::RunLauncherDialog d;
        QMap<QString, QString> given;  // option -> the dialog's value
        const QString first = d.strategyBox()->currentText();
        for (const QString& strategy : {first, u"topk"_s, u"beam"_s, u"speculative"_s}) {
            d.strategyBox()->setCurrentText(strategy);
            const QStringList args = d.arguments();
            for (qsizetype i = 0; i + 1 < args.size(); i += 2)
                if (!given.contains(args[i])) given[args[i]] = args[i + 1];
        }
        given.remove(u"--out"_s);  // a fresh file of the user's, no default in the CLI
        // The preset has no fixed default (each backend its own); the help names the
        // model backend's, which the dialog starts on.
        QCOMPARE(given.value(u"--backend"_s), u"model"_s);
        QVERIFY2(help.contains(u"the backend's own, "_s + given.take(u"--preset"_s)),
                 qPrintable(help));
        for (const char* option :
             {"--batch", "--prompt", "--tokens", "--strategy", "--seed", "--gpu", "--top-k",
              "--beams", "--draft-layers", "--gamma", "--acceptance"})
            QVERIFY2(given.contains(QLatin1String(option)), option);
        for (auto it = given.cbegin(); it != given.cend(); ++it) {
            const QRegularExpression line(
                u"^  "_s + QRegularExpression::escape(it.key()) + u" .*\\(default: ([^)]*)\\)$"_s,
                QRegularExpression::MultilineOption);
            const QRegularExpressionMatch m = line.match(help);
            QVERIFY2(m.hasMatch(), qPrintable(it.key()));
            QVERIFY2(
                m.captured(1) == it.value(),
                qPrintable(it.key() + u": dialog "_s + it.value() + u", CLI "_s + m.captured(1)));
        }
    }

    void badOptionsFailWithTheCliMessage() {
        ui::CliCommandProcess process;
        QSignalSpy failed(&process, &ui::CliCommandProcess::failed);
        QSignalSpy finished(&process, &ui::CliCommandProcess::finished);
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
        ui::CliCommandProcess process;
        process.setProgram(dir_.filePath(QStringLiteral("not-a-program")));
        QSignalSpy failed(&process, &ui::CliCommandProcess::failed);
        QVERIFY(process.start({}));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QVERIFY(failed.first().first().toString().contains(QLatin1String("not-a-program")));
    }

    void captureChildArgumentsFolderAndEnvironment() {
        QProcessEnvironment base;
        base.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin"));
        const ui::ExternalCommand c{QStringLiteral(R"(prog arg1 "arg 2")"), dir_.path(),
                                    QStringLiteral("FOO=bar\n\n# a comment\nTS_X=a=b\n"),
                                    QStringLiteral(R"(^step_\d+)"),
                                    QStringLiteral("rel.tokenscope")};
        const ui::CaptureChild child = ui::capture_child(c, base);
        QVERIFY2(child.problem.isEmpty(), qPrintable(child.problem));
        const QStringList want{QStringLiteral("capture"),
                               QStringLiteral("--out"),
                               QFileInfo(QStringLiteral("rel.tokenscope")).absoluteFilePath(),
                               QStringLiteral("--steps-from-nvtx"),
                               QStringLiteral(R"(^step_\d+)"),
                               QStringLiteral("--"),
                               QStringLiteral("prog"),
                               QStringLiteral("arg1"),
                               QStringLiteral("arg 2")};
        QCOMPARE(child.arguments, want);
        QProcess process;
        ui::apply_environment(child, process);
        QCOMPARE(process.workingDirectory(), QFileInfo(dir_.path()).absoluteFilePath());
        const QProcessEnvironment env = process.processEnvironment();
        QCOMPARE(env.value(QStringLiteral("FOO")), QStringLiteral("bar"));
        QCOMPARE(env.value(QStringLiteral("TS_X")), QStringLiteral("a=b"));
        QCOMPARE(env.value(QStringLiteral("PATH")), QStringLiteral("/usr/bin"));
        // No pattern, no --steps-from-nvtx; each bad field is named.
        ui::ExternalCommand bare = c;
        bare.steps_pattern.clear();
        QVERIFY(!ui::capture_child(bare, base).arguments.contains(u"--steps-from-nvtx"_s));
        ui::ExternalCommand bad = c;
        bad.environment = QStringLiteral("FOO=1\nnot a variable");
        QVERIFY(ui::capture_child(bad, base).problem.contains(u"environment line 2"_s));
        bad = c;
        bad.steps_pattern = QStringLiteral("(");
        QVERIFY(ui::capture_child(bad, base).problem.contains(u"NVTX step pattern"_s));
        bad = c;
        bad.working_directory = dir_.filePath(QStringLiteral("missing"));
        QVERIFY(ui::capture_child(bad, base).problem.contains(u"does not exist"_s));
        bad = c;
        bad.command_line = QStringLiteral("  ");
        QVERIFY(ui::capture_child(bad, base).problem.contains(u"command"_s));
    }

    void noDriverIsReportedAndNothingStarts() {
        ui::RunLauncherDialog d;
        auto* mode = d.findChild<QComboBox*>(QStringLiteral("modeBox"));
        QVERIFY(mode);
        QVERIFY(!d.externalForm()->isVisibleTo(&d));
        mode->setCurrentIndex(1);
        QVERIFY(d.externalMode());
        QVERIFY(d.externalForm()->isVisibleTo(&d));
        QVERIFY(!d.presetBox()->isVisibleTo(&d));
        d.findChild<QLineEdit*>(QStringLiteral("commandEdit"))->setText(QStringLiteral("true"));
        // This machine's own probe, when it finds no driver, says so too.
        if (!ui::probe_cuda_driver().ok)
            QVERIFY2(d.statusLabel()->text().contains(u"no CUDA driver"_s),
                     qPrintable(d.statusLabel()->text()));
        d.externalForm()->setDriverCheck([] {
            return ui::DriverCheck{false, QStringLiteral("no NVIDIA driver found")};
        });
        auto* note = d.findChild<QLabel*>(QStringLiteral("driverNote"));
        QVERIFY(note && note->isVisibleTo(&d));
        QVERIFY(note->text().contains(u"No CUDA driver"_s));
        QVERIFY(!d.startButton()->isEnabled());
        QSignalSpy failed(d.process(), &ui::CliCommandProcess::failed);
        QVERIFY(!d.start());
        QVERIFY2(d.statusLabel()->text().contains(u"no CUDA driver"_s),
                 qPrintable(d.statusLabel()->text()));
        QVERIFY(!d.process()->running());
        QTest::qWait(200);
        QCOMPARE(failed.count(), 0);
    }

    void withADriverTheCaptureChildRuns() {
        ui::RunLauncherDialog d;
        d.findChild<QComboBox*>(QStringLiteral("modeBox"))->setCurrentIndex(1);
        d.externalForm()->setDriverCheck([] { return ui::DriverCheck{true, {}}; });
        d.findChild<QLineEdit*>(QStringLiteral("commandEdit"))->setText(QStringLiteral("true"));
        d.findChild<QLineEdit*>(QStringLiteral("workingDirEdit"))->setText(dir_.path());
        d.outputEdit()->setText(dir_.filePath(QStringLiteral("external.tokenscope")));
        QVERIFY(d.startButton()->isEnabled());
        QSignalSpy failed(d.process(), &ui::CliCommandProcess::failed);
        QVERIFY(d.start());
        QVERIFY(d.process()->running());
        QVERIFY(d.process()->commandLine().contains(u"capture --out"_s));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        const QString message = failed.first().first().toString();
        const QString tail =
            d.findChild<QPlainTextEdit*>(QStringLiteral("outputTail"))->toPlainText();
        if (ui::probe_cuda_driver().ok) {  // the real CLI traces `true`: no CUDA calls
            QVERIFY2(message.contains(u"without reporting a run"_s), qPrintable(message));
        } else {  // the real CLI refuses, with capture's exit status 3 and its line
            QVERIFY2(message.contains(u"code 3"_s), qPrintable(message));
            QVERIFY2(tail.contains(u"capture: no NVIDIA driver"_s), qPrintable(tail));
        }
        QVERIFY(!d.process()->running());
    }

    void captureOutputTailRunAndCancel() {
        // A shell that plays capture: the tail, the "wrote run" line, folder and env.
        ui::CaptureChild child = ui::capture_child({QStringLiteral("x"),
                                                    dir_.path(),
                                                    QStringLiteral("TS_GREETING=hello there"),
                                                    {},
                                                    QStringLiteral("o")});
        QVERIFY2(child.problem.isEmpty(), qPrintable(child.problem));
        child.arguments =
            QStringList{QStringLiteral("-c"),
                        QStringLiteral("echo \"$TS_GREETING\"; pwd; echo 'capture: wrote run 7 to "
                                       "/x/y.tokenscope: 3 activities, 0 steps' >&2")};
        ui::CliCommandProcess process;
        process.setProgram(QStringLiteral("/bin/sh"));
        QSignalSpy finished(&process, &ui::CliCommandProcess::finished);
        QVERIFY(process.startCapture(child));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("/x/y.tokenscope"));
        QCOMPARE(finished.first().at(1).toLongLong(), 7);
        const QStringList tail = process.outputTail();
        QVERIFY2(tail.contains(u"hello there"_s), qPrintable(tail.join(u'|')));
        QVERIFY2(tail.contains(QFileInfo(dir_.path()).canonicalFilePath()),
                 qPrintable(tail.join(u'|')));
        child.arguments = QStringList{QStringLiteral("-c"), QStringLiteral("echo up; sleep 30")};
        QSignalSpy cancelled(&process, &ui::CliCommandProcess::cancelled);
        QSignalSpy line(&process, &ui::CliCommandProcess::outputLine);
        QVERIFY(process.startCapture(child));
        QTRY_COMPARE_WITH_TIMEOUT(line.count(), 1, 10000);
        process.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 10000);
        QCOMPARE(finished.count(), 1);
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
        QSignalSpy progress(d->process(), &ui::CliCommandProcess::progress);
        QSignalSpy finished(d->process(), &ui::CliCommandProcess::finished);
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
        QSignalSpy progress(d->process(), &ui::CliCommandProcess::progress);
        QSignalSpy finished(d->process(), &ui::CliCommandProcess::finished);
        QSignalSpy failed(d->process(), &ui::CliCommandProcess::failed);
        QSignalSpy cancelled(d->process(), &ui::CliCommandProcess::cancelled);
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
