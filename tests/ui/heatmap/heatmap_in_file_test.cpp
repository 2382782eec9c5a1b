// A kernel-duration heatmap of a run opened without its activities (a large one,
// trace::RunData::in_file): the window's analyzer reads the kernels from the run's file, a
// lane at a time, into a duration histogram per cell. On a real trace (vLLM's
// piecewise-graph step, ../shared/fixtures) written to a file here: the rows, columns and
// counts of the whole run's heatmap, each P95 within the stated bound, which the cell's
// tooltip gives.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "analysis/heatmap/heatmap.h"
#include "analysis/run_kind.h"
#include "import/importer.h"
#include "store/store_writer.h"
#include "support/fixtures.h"
#include "ui/plots/heatmap_plot.h"
#include "ui/plots/heatmap_plot_data.h"
#include "ui/shared/run_analyzer.h"
#include "ui/window/run_loader.h"

using namespace tokenscope;

namespace {
constexpr const char* kTrace = "engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz";
}  // namespace

class HeatmapInFileTest : public QObject {
    Q_OBJECT
  private slots:
    void kernelRowsReadTheFile_data() {
        QTest::addColumn<int>("rows");
        QTest::newRow("kernel") << int(analysis::HeatmapRows::Kernel);
        QTest::newRow("role") << int(analysis::HeatmapRows::Role);
        QTest::newRow("lane") << int(analysis::HeatmapRows::Lane);
    }

    void kernelRowsReadTheFile() {
        QFETCH(int, rows);
        TOKENSCOPE_QT_NEED_FIXTURE(kTrace);
        QTemporaryDir dir;
        auto whole = ui::RunLoader::load(test::fixture_path(kTrace), {}).at(0);
        const QString path = dir.filePath(QStringLiteral("vllm.tokenscope"));
        store::StoreWriter(path.toStdString()).write_run(whole);
        import::ImportOptions options;
        options.leave_activities_from = 1;
        auto light = ui::RunLoader::load(path.toStdString(), {}, options).at(0);
        QVERIFY(light.in_file && light.activities.empty());
        auto data = std::make_shared<const trace::RunData>(std::move(light));
        ui::OpenRun run{path, data, std::make_shared<const ui::TimelineIndex>(*data)};
        run.file_run = 0;

        analysis::HeatmapSpec spec = analysis::default_heatmap_spec(whole);
        spec.rows = static_cast<analysis::HeatmapRows>(rows);
        spec.metric = analysis::HeatmapMetric::KernelDuration;
        const analysis::Heatmap want = analysis::compute_heatmap(whole, spec);
        QCOMPARE(analysis::default_heatmap_spec(*data).window_size,
                 analysis::default_heatmap_spec(whole).window_size);

        ui::RunAnalyzer analyzer;
        QObject holder;
        analyzer.claim(&holder, {{}, {{run, spec}}});
        QTRY_VERIFY_WITH_TIMEOUT(
            analyzer.heatmap(data.get(), spec) || !analyzer.error(data.get(), spec).isEmpty(),
            30'000);
        QVERIFY2(analyzer.error(data.get(), spec).isEmpty(),
                 qPrintable(analyzer.error(data.get(), spec)));
        const auto got = analyzer.heatmap(data.get(), spec);
        QCOMPARE(got->value_error, 1.0 / 128);
        QCOMPARE(want.value_error, 0.0);
        QCOMPARE(got->row_labels, want.row_labels);
        QCOMPARE(got->column_count(), want.column_count());
        QVERIFY(want.row_count() > 0);  // one stream: one lane row
        std::size_t filled = 0;
        for (std::size_t i = 0; i < want.cells.size(); ++i) {
            QCOMPARE(got->cells[i].count, want.cells[i].count);
            QCOMPARE(got->cells[i].value.has_value(), want.cells[i].value.has_value());
            if (!want.cells[i].value) continue;
            ++filled;
            QVERIFY(std::abs(*got->cells[i].value - *want.cells[i].value) <=
                    *want.cells[i].value / 128 + 1e-9);
        }
        QVERIFY(filled > 0);
        // The cell's tooltip says how close its P95 is.
        ui::plots::HeatmapPlot plot;
        plot.setHeatmap(ui::plots::HeatmapPlotData::fromHeatmap(*got));
        for (std::size_t r = 0; r < got->row_count(); ++r)
            for (std::size_t c = 0; c < got->column_count(); ++c)
                if (got->at(r, c).value) {
                    QVERIFY(plot.cellToolTip(r, c).contains(QStringLiteral("\u00b10.8%")));
                    return;
                }
    }
};

QTEST_MAIN(HeatmapInFileTest)
#include "heatmap_in_file_test.moc"
