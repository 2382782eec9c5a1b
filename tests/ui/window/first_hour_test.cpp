// What a newcomer met in the first hour (issue 26), through the real window: the export
// dialog, the heatmap's first window and its tooltip, the New Run dialog's parameter
// count, and where a finished New Run leaves the user.
#include <qcustomplot.h>
#include <QApplication>
#include <QFile>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QScreen>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "support/hand_store.h"
#include "support/test_settings.h"
#include "ui/heatmap/heatmap_tab.h"
#include "ui/launcher/decode_run_form.h"
#include "ui/launcher/run_launcher_dialog.h"
#include "ui/plots/heatmap_plot.h"
#include "ui/shared/export_dialog.h"
#include "ui/shared/run_list_model.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"
#include "ui/window/run_loader.h"
#include "ui/window/sample_run.h"

using namespace tokenscope;

namespace {

QWidget* shown_tooltip() {
    for (QWidget* w : QApplication::topLevelWidgets())
        if (w->inherits("QTipLabel") && w->isVisible()) return w;
    return nullptr;
}

}  // namespace

class FirstHourTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString sample_;

    void open(ui::MainWindow& window, const QString& file) {
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        window.openFiles({file});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
    }

  private slots:
    void initTestCase() {
        test::use_test_settings(QStringLiteral("first_hour_test"));
        QVERIFY(dir_.isValid());
        sample_ = dir_.filePath(QStringLiteral("sample.tokenscope"));
        QVERIFY(QFile::copy(ui::SampleRun::path(), sample_));
    }

    // Export goes beside the run, the whole path in view, under a "File" label (it read
    // "F&ile": a form row whose field is a layout gets no buddy).
    void exportGoesBesideTheRun() {
        QTemporaryDir runs;
        const QString file =
            test::write_hand_store(runs, QStringLiteral("export-run.tokenscope"), "export run");
        ui::MainWindow window;
        window.resize(1366, 768);
        window.show();
        open(window, file);
        window.tabs()->setCurrentWidget(window.heatmapTab());
        QTRY_VERIFY_WITH_TIMEOUT(!window.heatmapTab()->computing(), 30000);
        QString path, label;
        bool whole = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<ui::ExportDialog*>(QApplication::activeModalWidget());
            if (dialog == nullptr) return;
            path = dialog->path();
            QLineEdit* field = dialog->pathField();
            whole = field->fontMetrics().horizontalAdvance(field->text()) < field->width();
            auto* file_label = dialog->findChild<QLabel*>(QStringLiteral("exportFileLabel"));
            if (file_label != nullptr && file_label->buddy() == field)
                label = file_label->text().remove(QLatin1Char('&'));
            dialog->reject();
        });
        window.heatmapTab()->exportPlot();
        QCOMPARE(QFileInfo(path).absolutePath(), QFileInfo(file).absolutePath());
        QVERIFY2(whole, qPrintable(path));  // a plain field showed about 30 characters of it
        QCOMPARE(label, QStringLiteral("File"));
        QCOMPARE(ui::ExportDialog::defaultFolder(file), QFileInfo(file).absolutePath());
    }

    // Windows of steps are labelled where their steps start: the sample's first window
    // holds the prefill, which starts with the run ("0 ms"), not where it ends.
    void theFirstHeatmapWindowIsLabelledByItsStart() {
        ui::MainWindow window;
        window.resize(1366, 768);
        window.show();
        open(window, sample_);
        window.tabs()->setCurrentWidget(window.heatmapTab());
        ui::plots::HeatmapPlot* plot = window.heatmapTab()->plot();
        QTRY_VERIFY_WITH_TIMEOUT(plot->heatmap().column_count > 1, 30000);
        const auto& data = plot->heatmap();
        const auto& run = *window.runList()->run(0).data;
        std::int64_t first_start = run.steps.front().start_ns;
        for (const auto& s : run.steps) first_start = std::min(first_start, s.start_ns);
        QCOMPARE(data.column_start(0), first_start);
        QVERIFY(data.columns[0].start_ns > first_start);  // the window opens at the prefill's end
        auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot->xAxis->ticker());
        const QString label = ticker->ticks().value(0.0);
        QVERIFY2(label.startsWith(QStringLiteral("0 ")) || label.startsWith(QStringLiteral("0.")),
                 qPrintable(label));
        QVERIFY(plot->cellToolTip(0, 0).contains(QStringLiteral("window 0: 0")));
    }

    // A tooltip with a C++ kernel name of 300 characters stays on the screen.
    void aLongNameTooltipStaysOnScreen() {
        ui::MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tabs()->setCurrentWidget(window.heatmapTab());
        ui::plots::HeatmapPlot* plot = window.heatmapTab()->plot();
        ui::plots::HeatmapPlotData data;
        QString name =
            QStringLiteral("void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_");
        while (name.size() < 300) name += QStringLiteral("bf16_32x32_128x2_tn_align8");
        name += QStringLiteral(">(Params)");
        data.row_labels = {name};
        data.column_count = 2;
        data.columns = {{0, 1000}, {1000, 2000}};
        data.values = {1000.0, 2000.0};
        data.counts = {1, 1};
        plot->setHeatmap(data);
        plot->replot();
        const QPoint at = plot->cellCenter(0, 1).toPoint();
        QMouseEvent move(QEvent::MouseMove, QPointF(at), QPointF(plot->mapToGlobal(at)),
                         Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(plot, &move);
        QTRY_VERIFY(shown_tooltip() != nullptr);
        QTest::qWait(20);  // the window system has placed it
        const QRect screen = plot->screen()->availableGeometry();
        const QRect tip = shown_tooltip()->frameGeometry();
        QVERIFY2(screen.contains(tip), qPrintable(QStringLiteral("tooltip %1,%2 %3x%4 on %5x%6")
                                                      .arg(tip.x())
                                                      .arg(tip.y())
                                                      .arg(tip.width())
                                                      .arg(tip.height())
                                                      .arg(screen.width())
                                                      .arg(screen.height())));
    }

    // Four GEMM rows whose names share their first 60 characters read apart on the axis
    // (they showed one cut-off name four times).
    void longRowNamesStayApart() {
        ui::MainWindow window;
        window.resize(1366, 768);
        window.show();
        ui::plots::HeatmapPlot* plot = window.heatmapTab()->plot();
        ui::plots::HeatmapPlotData data;
        const QString common =
            QStringLiteral("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_");
        for (const char* tail : {"warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
                                 "warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
                                 "warpgroupsize1x1x1_execute_segment_k_on_kernel__5x_cublas",
                                 "stages3_warpgroupsize1x1x1_execute_kernel__5x_cublas"})
            data.row_labels << common + QString::fromUtf8(tail);
        data.column_count = 1;
        data.columns = {{0, 1000}};
        data.values = {1.0, 2.0, 3.0, 4.0};
        data.counts = {1, 1, 1, 1};
        plot->setHeatmap(data);
        auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot->yAxis->ticker());
        QSet<QString> shown;
        for (const QString& label : ticker->ticks()) {
            QVERIFY2(label.size() <= 49, qPrintable(label));
            shown.insert(label);
        }
        QCOMPARE(shown.size(), 4);
    }

    // The tiny preset's parameters in millions, not "0.00 B"; a finished New Run opens
    // its run on the Timeline, whatever tab was in front.
    void newRunWordsAndWhereItEnds() {
        ui::MainWindow window;
        window.resize(1366, 768);
        ui::RunLauncherDialog* dialog = window.newRun();
        auto* form = dialog->findChild<ui::DecodeRunForm*>();
        QVERIFY(form != nullptr);
        form->presetBox()->setCurrentText(QStringLiteral("tiny"));
        const QString shape = form->shapeLabel()->text();
        QVERIFY2(shape.contains(QStringLiteral(" M parameters")) &&
                     !shape.contains(QStringLiteral("0.00 B")),
                 qPrintable(shape));
        form->presetBox()->setCurrentText(QStringLiteral("llama-8b"));
        QVERIFY2(form->shapeLabel()->text().contains(QStringLiteral(" B parameters")),
                 qPrintable(form->shapeLabel()->text()));

        const QString made =
            test::write_hand_store(dir_, QStringLiteral("made.tokenscope"), "made run");
        const qint64 id = ui::RunLoader::load(made.toStdString(), {}).front().info.id;
        window.tabs()->setCurrentWidget(window.heatmapTab());
        QSignalSpy opened(&window, &ui::MainWindow::runsOpened);
        emit dialog->runFinished(made, id);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        QCOMPARE(window.tabs()->currentWidget(), window.timelineTab());
        QCOMPARE(window.timelineTab()->view()->run().name(), QStringLiteral("made run"));
        dialog->close();
    }
};

QTEST_MAIN(FirstHourTest)
#include "first_hour_test.moc"
