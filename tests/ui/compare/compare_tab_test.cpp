// The Compare tab: diff_runs of A and B shown as heatmaps on a shared scale, a
// delta heatmap, the metric table and the sortable kernel table; swap; empty state.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include <QTemporaryDir>
#include <cmath>

#include "../hand_run.h"
#include "import/importer.h"
#include "store/store_writer.h"
#include "support/fixtures.h"
#include "ui/compare/compare_tab.h"
#include "ui/compare/iteration_delta_model.h"
#include "ui/compare/kernel_delta_model.h"
#include "ui/compare/metric_delta_model.h"
#include "ui/heatmap/heatmap_controls.h"
#include "ui/plots/heatmap_plot.h"
#include "ui/window/run_loader.h"

using namespace tokenscope;

namespace {

void add_kernel(trace::RunData& run, const char* name, std::int64_t s, std::int64_t e) {
    trace::Activity k;
    k.lane = 1, k.kind = trace::ActivityKind::Kernel, k.start_ns = s, k.end_ns = e;
    k.name = run.strings.intern(name);
    run.activities.push_back(k);
}

// A: the hand run (gemm_bf16 10000 ns) plus old_a (1000 ns) and old_b (5000 ns).
// B: gemm_bf16 12000 ns, softmax 3000 ns; its decode step lasts 30000 ns, not 25000.
ui::OpenRun run_a() {
    trace::RunData run = test::hand_run("run A");
    add_kernel(run, "old_a", 30000, 31000);
    add_kernel(run, "old_b", 32000, 37000);
    return test::open_run(std::move(run), QStringLiteral("a.tokenscope"));
}

ui::OpenRun fixture_run(const char* relative) {
    auto runs = ui::RunLoader::load(tokenscope::test::fixture_path(relative), {});
    if (runs.empty()) return {};
    return test::open_run(std::move(runs[0]), QString::fromUtf8(relative));
}

ui::OpenRun run_b() {
    trace::RunData run = test::hand_run("run B");
    for (auto& a : run.activities)
        if (run.name_of(a) == "gemm_bf16") a.end_ns = 14000;
    add_kernel(run, "softmax", 30000, 33000);
    run.steps[1].end_ns = 55000;
    run.requests[0].done_ns = 55000;
    return test::open_run(std::move(run), QStringLiteral("b.tokenscope"));
}

}  // namespace

class CompareTabTest : public QObject {
    Q_OBJECT

    static void compare(ui::CompareTab& tab, const ui::OpenRun& a, const ui::OpenRun& b) {
        QSignalSpy ready(&tab, &ui::CompareTab::diffReady);
        tab.compare(a, b);
        QTRY_COMPARE(ready.count(), 1);
    }

    static QStringList kernel_order(const ui::CompareTab& tab) {
        QStringList names;
        auto* proxy = tab.kernelProxy();
        for (int r = 0; r < proxy->rowCount(); ++r)
            names << proxy->index(r, ui::KernelDeltaModel::Name).data().toString();
        return names;
    }

  private slots:
    void emptyUntilTwoRuns() {
        ui::CompareTab tab;
        QVERIFY(tab.showsEmptyState());
        tab.compare(run_a(), ui::OpenRun{});
        QVERIFY(tab.showsEmptyState());
        QCOMPARE(tab.metricModel()->rowCount(), 0);
    }

    void metricTableHasEveryMetricAndStatistic() {
        ui::CompareTab tab;
        QAbstractItemModelTester tester(tab.metricModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        compare(tab, run_a(), run_b());
        QVERIFY(!tab.showsEmptyState());
        // ttft, tpot, itl, e2e and step all have samples: 5 metrics x 5 statistics.
        auto* m = tab.metricModel();
        QCOMPARE(m->rowCount(), 25);
        // e2e: A 50000, B 55000 ns: +5000 ns, +10.0 %; one sample each: not significant.
        int e2e_mean = -1;
        for (int r = 0; r < m->rowCount(); ++r)
            if (m->index(r, ui::MetricDeltaModel::Metric).data().toString() ==
                    QStringLiteral("e2e") &&
                m->index(r, ui::MetricDeltaModel::Statistic).data().toString() ==
                    QStringLiteral("mean"))
                e2e_mean = r;
        QVERIFY(e2e_mean >= 0);
        QCOMPARE(m->index(e2e_mean, ui::MetricDeltaModel::A).data().toString(),
                 QStringLiteral("0.050 ms"));
        QCOMPARE(m->index(e2e_mean, ui::MetricDeltaModel::Delta).data().toString(),
                 QStringLiteral("+0.005 ms"));
        QCOMPARE(m->index(e2e_mean, ui::MetricDeltaModel::DeltaPct).data().toString(),
                 QStringLiteral("+10.0 %"));
        QCOMPARE(m->index(e2e_mean, ui::MetricDeltaModel::Significant).data().toString(),
                 QStringLiteral("no"));
    }

    void kernelTableSortsNumerically() {
        ui::CompareTab tab;
        QAbstractItemModelTester tester(tab.kernelModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxy_tester(
            tab.kernelProxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        compare(tab, run_a(), run_b());
        QCOMPARE(tab.kernelModel()->rowCount(), 4);
        // Total deltas: softmax +3000, gemm_bf16 +2000, old_a -1000, old_b -5000. As
        // text "-0.005 ms" would sort above "-0.001 ms"; numerically it is last.
        tab.kernelView()->sortByColumn(ui::KernelDeltaModel::TotalDelta, Qt::DescendingOrder);
        QCOMPARE(kernel_order(tab), (QStringList{"softmax", "gemm_bf16", "old_a", "old_b"}));
        tab.kernelView()->sortByColumn(ui::KernelDeltaModel::TotalA, Qt::AscendingOrder);
        // A totals: softmax absent (0), old_a 1000, old_b 5000, gemm 10000.
        QCOMPARE(kernel_order(tab), (QStringList{"softmax", "old_a", "old_b", "gemm_bf16"}));
        QCOMPARE(tab.kernelProxy()->index(0, ui::KernelDeltaModel::TotalA).data().toString(),
                 QStringLiteral("\u2014"));
    }

    void heatmapsShareOneScale() {
        ui::CompareTab tab;
        compare(tab, run_a(), run_b());
        // Default spec: phase rows, step latency, 16-step windows: one window. Prefill is
        // 25000 ns in both; decode 25000 in A, 30000 in B.
        QCPColorMapData* delta = tab.plotDelta()->colorMap()->data();
        QCOMPARE(delta->keySize(), 1);
        QCOMPARE(delta->valueSize(), 2);
        QCOMPARE(delta->cell(0, 0), 0.0);
        QCOMPARE(delta->cell(0, 1), 0.005);
        QCOMPARE(tab.plotDelta()->colorScale()->dataRange(), QCPRange(-0.005, 0.005));
        const QCPRange a = tab.plotA()->colorScale()->dataRange();
        QCOMPARE(a, QCPRange(0.025, 0.030));
        QCOMPARE(tab.plotB()->colorScale()->dataRange(), a);
    }

    // Token steps of our own decode runs are no engine iterations: no iteration section.
    void handRunsShowNoIterations() {
        ui::CompareTab tab;
        compare(tab, run_a(), run_b());
        QVERIFY(!tab.showsIterations());
        QCOMPARE(tab.iterationModel()->rowCount(), 0);
    }

    // Two real engine traces (vLLM V1 and SGLang, one decode iteration of batch 32 each on
    // an MI300X): the iteration sentence and table, and the kernel table readable with
    // Tensile's names of hundreds of characters: short in the cell, whole in the tooltip.
    void engineTracesShowTheIterationComparison() {
        const char* vllm = "engines/vllm_v1_mi300x_fullgraph_decode_bs32_step.json.gz";
        const char* sglang = "engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz";
        TOKENSCOPE_QT_NEED_FIXTURE(vllm);
        TOKENSCOPE_QT_NEED_FIXTURE(sglang);
        ui::CompareTab tab;
        QAbstractItemModelTester tester(tab.iterationModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy ready(&tab, &ui::CompareTab::diffReady);
        tab.compare(fixture_run(vllm), fixture_run(sglang));
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QVERIFY(tab.showsIterations());
        QVERIFY2(tab.iterationText().startsWith(QStringLiteral("B's decode iterations are ")),
                 qPrintable(tab.iterationText()));
        QVERIFY(tab.iterationText().contains(QStringLiteral("(P50)")));
        const auto* m = tab.iterationModel();
        QVERIFY(m->rowCount() > 4);
        QCOMPARE(m->index(0, ui::IterationDeltaModel::Quantity).data().toString(),
                 QStringLiteral("iterations (1 aligned)"));
        QCOMPARE(m->index(1, ui::IterationDeltaModel::Quantity).data().toString(),
                 QStringLiteral("iteration P50"));
        QStringList quantities;
        for (int r = 0; r < m->rowCount(); ++r)
            quantities << m->index(r, ui::IterationDeltaModel::Quantity).data().toString();
        QVERIFY2(quantities.contains(QStringLiteral("GPU idle (mean)")),
                 qPrintable(quantities.join(QStringLiteral(", "))));
        QVERIFY(quantities.contains(QStringLiteral("GEMM (mean)")));
        auto* kernels = tab.kernelModel();
        int tensile = 0;
        for (int r = 0; r < kernels->rowCount(); ++r) {
            const QModelIndex name = kernels->index(r, ui::KernelDeltaModel::Name);
            const QString full = name.data(Qt::ToolTipRole).toString();
            QCOMPARE(full, QString::fromStdString(kernels->kernel(r).name));
            QVERIFY2(name.data().toString().size() <= ui::KernelDeltaModel::kNameChars + 4,
                     qPrintable(name.data().toString()));
            if (full.startsWith(QStringLiteral("Cijk_")) && full.size() > 200) ++tensile;
        }
        QVERIFY(tensile > 0);
        // The filter matches full names, of which the short one may keep nothing.
        tab.kernelProxy()->setFilterFixedString(QStringLiteral("MT256x32x64"));
        QVERIFY(tab.kernelProxy()->rowCount() > 0);
        // Two engines share no kernel name: the heatmaps open on kernel-role rows over
        // one iteration a column, so B - A has rows and columns both sides have.
        const analysis::HeatmapSpec spec = tab.controls()->spec();
        QCOMPARE(int(spec.rows), int(analysis::HeatmapRows::Role));
        QCOMPARE(int(spec.window), int(analysis::WindowKind::Steps));
        QCOMPARE(spec.window_size, std::int64_t{1});
    }

    // Large runs open without their activities (trace::RunData::in_file): the tab reads what
    // it compares of them from their files, and shows what the runs read whole show: the
    // iteration sentence and table, and every kernel's count and total (P95 within 0.8 %).
    void runsLeftInTheirFilesCompareAsWhole() {
        const char* vllm = "engines/vllm_v1_mi300x_fullgraph_decode_bs32_step.json.gz";
        const char* sglang = "engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz";
        TOKENSCOPE_QT_NEED_FIXTURE(vllm);
        TOKENSCOPE_QT_NEED_FIXTURE(sglang);
        QTemporaryDir dir;
        auto light = [&](const ui::OpenRun& whole, const QString& name) {
            const QString path = dir.filePath(name);
            store::StoreWriter(path.toStdString()).write_run(*whole.data);
            import::ImportOptions options;
            options.leave_activities_from = 1;
            auto runs = ui::RunLoader::load(path.toStdString(), {}, options);
            ui::OpenRun run = test::open_run(std::move(runs.at(0)), path);
            run.file_run = 0;
            return run;
        };
        const ui::OpenRun whole_a = fixture_run(vllm), whole_b = fixture_run(sglang);
        const ui::OpenRun a = light(whole_a, QStringLiteral("a.tokenscope"));
        const ui::OpenRun b = light(whole_b, QStringLiteral("b.tokenscope"));
        QVERIFY(a.data->in_file && a.data->activities.empty());
        ui::CompareTab from_files, in_memory;
        QSignalSpy ready(&from_files, &ui::CompareTab::diffReady);
        from_files.compare(a, b);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QSignalSpy ready_whole(&in_memory, &ui::CompareTab::diffReady);
        in_memory.compare(whole_a, whole_b);
        QTRY_COMPARE_WITH_TIMEOUT(ready_whole.count(), 1, 30000);
        QVERIFY(from_files.showsIterations());
        QCOMPARE(from_files.iterationText(), in_memory.iterationText());
        const auto* got = from_files.iterationModel();
        const auto* want = in_memory.iterationModel();
        QCOMPARE(got->rowCount(), want->rowCount());
        for (int r = 0; r < want->rowCount(); ++r)
            for (int c = 0; c < want->columnCount(); ++c)
                QCOMPARE(got->index(r, c).data(), want->index(r, c).data());
        auto* kg = from_files.kernelModel();
        auto* kw = in_memory.kernelModel();
        QCOMPARE(kg->rowCount(), kw->rowCount());
        QVERIFY(kw->rowCount() > 10);
        for (int r = 0; r < kw->rowCount(); ++r) {
            const auto& g = kg->kernel(r);
            const auto& w = kw->kernel(r);
            QCOMPARE(g.name, w.name);
            QCOMPARE(g.a.count, w.a.count);
            QCOMPARE(g.b.total_ns, w.b.total_ns);
            QVERIFY(std::abs(g.b.p95_ns - w.b.p95_ns) <= w.b.p95_ns / 128 + 1e-9);
        }
        // The P95 cells of a histogram's P95 say how close it is; the exact ones do not.
        const int row = [&] {
            for (int r = 0; r < kg->rowCount(); ++r)
                if (kg->kernel(r).in_b) return r;
            return -1;
        }();
        QVERIFY(row >= 0);
        QVERIFY(kg->index(row, ui::KernelDeltaModel::P95B)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral(" \u00b10.8%")));
        QVERIFY(
            !kw->index(row, ui::KernelDeltaModel::P95B).data().toString().contains(QChar(0x00b1)));
    }

    void swapExchangesAAndB() {
        ui::CompareTab tab;
        compare(tab, run_a(), run_b());
        QSignalSpy ready(&tab, &ui::CompareTab::diffReady);
        tab.swapButton()->click();
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(tab.runA().name(), QStringLiteral("run B"));
        QCOMPARE(tab.runB().name(), QStringLiteral("run A"));
        QCOMPARE(tab.plotDelta()->colorMap()->data()->cell(0, 1), -0.005);
        QVERIFY(tab.plotA()->displayedTitle().contains(QStringLiteral("run B")));
    }
};

QTEST_MAIN(CompareTabTest)
#include "compare_tab_test.moc"
