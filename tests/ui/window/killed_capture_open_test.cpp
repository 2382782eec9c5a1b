// A capture killed with SIGKILL, dropped on the main window the way a user
// opens it: the GUI must open it (not "not a recognised trace format"), list
// it under its real backend, not as a model run, and keep its committed steps.
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <csignal>

#include "support/test_settings.h"
#include "ui/shared/run_list_model.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"

using namespace tokenscope;

class KilledCaptureOpenTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // Starts a long cpu run and kills it (SIGKILL) once its -wal holds
    // `wal_bytes` of committed batches (by time alone, a loaded machine may not
    // have finished the prefill).
    QString killed_capture(const QString& name, qint64 wal_bytes) {
        const QString path = dir_.filePath(name);
        QProcess cli;
        cli.setProgram(QStringLiteral(TOKENSCOPE_CLI_PATH));
        cli.setArguments(
            {QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("cpu"),
             QStringLiteral("--preset"), QStringLiteral("tiny"), QStringLiteral("--batch"),
             QStringLiteral("2"), QStringLiteral("--tokens"), QStringLiteral("2000"),
             // A short prompt: the fp32 prefill of 512 tokens takes
             // tens of seconds under AddressSanitizer, and the kill
             // is meant to land in the decode.
             QStringLiteral("--prompt"), QStringLiteral("16"), QStringLiteral("--progress"),
             QStringLiteral("none"), QStringLiteral("--quiet"), QStringLiteral("--out"), path});
        cli.start();
        if (!cli.waitForStarted()) return {};
        const QString wal = path + QStringLiteral("-wal");
        for (int waited = 0; waited < 30000 && cli.state() == QProcess::Running; waited += 20) {
            if (QFileInfo(wal).size() >= wal_bytes) break;
            QTest::qWait(20);
        }
        cli.kill();  // SIGKILL on Unix
        cli.waitForFinished();
        return path;
    }

  private slots:
    void initTestCase() {
        tokenscope::test::use_test_settings(QStringLiteral("killed_capture_open_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
    }

    void droppedKilledCaptureOpensAsCpuRun() {
        for (qint64 kb : {256, 640}) {
            const QString path =
                killed_capture(QStringLiteral("killed_%1.tokenscope").arg(kb), kb * 1024);
            QVERIFY(!path.isEmpty());
            QVERIFY(QFile::exists(path + QStringLiteral("-wal")));
            ui::MainWindow window;
            window.resize(1400, 800);
            QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
            QSignalSpy errors(&window, &ui::MainWindow::errorReported);
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(path)});
            QDragEnterEvent enter(QPoint(700, 400), Qt::CopyAction, &mime, Qt::LeftButton,
                                  Qt::NoModifier);
            QCoreApplication::sendEvent(&window, &enter);
            QDropEvent drop(QPointF(700, 400), Qt::CopyAction, &mime, Qt::LeftButton,
                            Qt::NoModifier);
            QCoreApplication::sendEvent(&window, &drop);
            QTRY_VERIFY_WITH_TIMEOUT(opened.count() == 1 || errors.count() > 0, 20000);
            QVERIFY2(errors.isEmpty(), qPrintable(errors.value(0).value(0).toString()));
            QCOMPARE(window.runList()->rowCount(), 1);
            const QString row = window.runList()->data(window.runList()->index(0)).toString();
            QVERIFY2(row.contains(QStringLiteral("cpu")), qPrintable(row));
            QVERIFY2(!row.contains(QStringLiteral("(model)")), qPrintable(row));
            const auto run = window.timelineTab()->view()->run();
            QVERIFY(run.valid());
            QCOMPARE(run.data->info.source, trace::Source::Cpu);
            QVERIFY(!run.data->info.complete);
            QVERIFY(!run.data->steps.empty());
            bool data_loss = false;
            for (const auto& d : run.data->diagnostics)
                data_loss |= d.severity == trace::Severity::DataLoss;
            QVERIFY(data_loss);
        }
    }
};

QTEST_MAIN(KilledCaptureOpenTest)
#include "killed_capture_open_test.moc"
