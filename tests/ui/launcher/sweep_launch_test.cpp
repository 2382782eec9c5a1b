// A sweep launched from the run launcher: the child's arguments (sweep_child())
// against what the real tokenscope-cli parses and stores, the dialog's sweep mode
// end to end (progress with an ETA, the file opening in the Sweep tab), and a
// cancel that keeps the finished runs.
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "store/sweep_store.h"
#include "ui/launcher/cli_command_process.h"
#include "ui/launcher/run_launcher_dialog.h"
#include "ui/launcher/sweep_launch_form.h"
#include "ui/sweep/sweep_point_model.h"
#include "ui/sweep/sweep_tab.h"
#include "ui/window/main_window.h"

using namespace tokenscope;
using namespace Qt::StringLiterals;

class SweepLaunchTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // The dialog in sweep mode with a tiny grid of `points` points into `out`.
    static void fillTiny(ui::RunLauncherDialog& d, const QString& out) {
        d.findChild<QComboBox*>(u"modeBox"_s)->setCurrentIndex(2);
        ui::SweepLaunchForm* f = d.sweepForm();
        f->field(u"preset"_s)->setText(u"tiny"_s);
        f->field(u"batch"_s)->setText(u"1,2"_s);
        f->field(u"prompt"_s)->setText(u"16"_s);
        f->field(u"tokens"_s)->setText(u"4"_s);
        f->warmupBox()->setValue(1);
        f->repeatsBox()->setValue(2);
        d.outputEdit()->setText(out);
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"TokenscopeTest"_s);
        QCoreApplication::setApplicationName(u"sweep_launch_test"_s);
        QSettings().clear();
        qputenv("TOKENSCOPE_CLI", TOKENSCOPE_CLI_PATH);
        QVERIFY(dir_.isValid());
    }

    void argumentsAreWhatTheCliParses() {
        ui::SweepLaunch l;
        l.backend = u"model"_s;
        l.grid = {{u"preset"_s, u"tiny"_s},     {u"batch"_s, u"1,2"_s},
                  {u"prompt"_s, u"16:32:x2"_s}, {u"tokens"_s, u" 4 "_s},
                  {u"strategy"_s, QString()},   {u"qps"_s, QString()}};
        l.warmup = 1;
        l.repeats = 2;
        l.name = u"launched"_s;
        l.out = dir_.filePath(u"args.tokenscope"_s);
        const ui::SweepChild child = ui::sweep_child(l);
        QVERIFY2(child.problem.isEmpty(), qPrintable(child.problem));
        QCOMPARE(child.points, qint64{4});
        const QStringList want{
            u"sweep"_s, u"--out"_s,      l.out,    u"--backend"_s, u"model"_s,    u"--warmup"_s,
            u"1"_s,     u"--repeats"_s,  u"2"_s,   u"--name"_s,    u"launched"_s, u"--preset"_s,
            u"tiny"_s,  u"--batch"_s,    u"1,2"_s, u"--prompt"_s,  u"16:32:x2"_s, u"--tokens"_s,
            u"4"_s,     u"--progress"_s, u"json"_s};
        QCOMPARE(child.arguments, want);
        // The real CLI takes them and stores the grid they describe.
        QProcess cli;
        cli.start(QStringLiteral(TOKENSCOPE_CLI_PATH), child.arguments);
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        store::SweepStore store(l.out.toStdString(), true);
        const auto sweeps = store.sweeps();
        QCOMPARE(sweeps.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(sweeps[0].name), u"launched"_s);
        const QJsonObject spec = QJsonDocument::fromJson(sweeps[0].spec_json.c_str()).object();
        QCOMPARE(spec.value(u"warmup"_s).toInt(), 1);
        QCOMPARE(spec.value(u"repeats"_s).toInt(), 2);
        const QJsonArray axes = spec.value(u"axes"_s).toArray();
        QCOMPARE(axes.size(), 2);
        QCOMPARE(axes[0].toObject().value(u"name"_s).toString(), u"batch"_s);
        QCOMPARE(axes[1].toObject().value(u"values"_s).toArray().size(), 2);  // 16, 32
        QCOMPARE(store.points(sweeps[0].id).size(), std::size_t{8});          // 4 points x 2
        // A typo is named before anything starts.
        l.grid[1].second = u"1:8:+0"_s;
        QVERIFY(ui::sweep_child(l).problem.startsWith(u"batch"_s));
    }

    void statusShowsTheEta() {
        QCOMPARE(ui::sweep_status(0, 10, 500),
                 u"Sweep: run 0 of 10 (warm-ups included), 1 s, ETA ?"_s);
        // 4 runs in 8 s: 2 s each, 6 left.
        QVERIFY(ui::sweep_status(4, 10, 8000).endsWith(u"ETA 12 s"_s));
    }

    void launchedSweepOpensInTheSweepTab() {
        ui::MainWindow w;
        w.show();
        ui::RunLauncherDialog* d = w.newRun();
        const QString out = dir_.filePath(u"launched.tokenscope"_s);
        fillTiny(*d, out);
        QVERIFY(d->sweepMode());
        QVERIFY(d->sweepForm()->isVisibleTo(d));
        QVERIFY(!d->presetBox()->isVisibleTo(d));
        QVERIFY2(d->startButton()->isEnabled(), qPrintable(d->statusLabel()->text()));
        QStringList statuses;
        connect(d->process(), &ui::CliCommandProcess::progress, this,
                [&] { statuses << d->statusLabel()->text(); });
        QVERIFY(d->start());
        ui::SweepTab* tab = w.sweepTab();
        QTRY_VERIFY_WITH_TIMEOUT(w.tabs()->currentWidget() == tab, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(tab->hasSweep() && !tab->busy(), 20000);
        QCOMPARE(QFileInfo(tab->path()), QFileInfo(out));
        QCOMPARE(tab->pointModel()->rowCount(), 2);
        // 2 points x (1 warm-up + 2 counted runs): one progress line each.
        QCOMPARE(statuses.size(), 6);
        QVERIFY2(statuses.last().contains(u"run 6 of 6"_s) && statuses.last().contains(u"ETA"_s),
                 qPrintable(statuses.join(u'|')));
    }

    void cancelKeepsTheFinishedRuns() {
        ui::RunLauncherDialog d;
        const QString out = dir_.filePath(u"cancelled.tokenscope"_s);
        fillTiny(d, out);
        // The serving model for a minute at each rate: long enough to cancel midway.
        ui::SweepLaunchForm* f = d.sweepForm();
        f->field(u"preset"_s)->setText(u"llama-8b"_s);
        f->field(u"batch"_s)->clear();
        f->field(u"qps"_s)->setText(u"40:60:+5"_s);
        f->field(u"duration"_s)->setText(u"60s"_s);
        f->field(u"prompt"_s)->setText(u"512"_s);
        f->field(u"tokens"_s)->setText(u"128"_s);
        f->findChild<QComboBox*>(u"sweepSummary"_s)->setCurrentText(u"on"_s);
        f->warmupBox()->setValue(0);
        f->repeatsBox()->setValue(3);
        QVERIFY2(d.startButton()->isEnabled(), qPrintable(d.statusLabel()->text()));
        QSignalSpy progress(d.process(), &ui::CliCommandProcess::progress);
        QSignalSpy cancelled(d.process(), &ui::CliCommandProcess::cancelled);
        QSignalSpy finished(d.process(), &ui::CliCommandProcess::sweepFinished);
        QVERIFY(d.start());
        QTRY_VERIFY_WITH_TIMEOUT(progress.size() >= 1, 60000);
        d.process()->cancel();
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.size(), 1, 20000);
        QCOMPARE(finished.size(), 0);
        // In the window's words: no command-line flag (issue 26).
        QVERIFY2(d.statusLabel()->text().contains(u"kept in the output file"_s) &&
                     !d.statusLabel()->text().contains(u"--"_s),
                 qPrintable(d.statusLabel()->text()));
        store::SweepStore store(out.toStdString(), true);
        const auto stored = store.points(store.sweeps().back().id).size();
        QVERIFY2(stored >= 1 && stored < 15, qPrintable(QString::number(stored)));
    }
};

QTEST_MAIN(SweepLaunchTest)
#include "sweep_launch_test.moc"
