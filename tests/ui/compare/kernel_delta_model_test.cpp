// KernelDeltaModel: text per column, absent sides, numeric sort through a proxy,
// and QAbstractItemModelTester through a reset.
#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

#include "ui/compare/kernel_delta_model.h"

using namespace tokenscope;
using ui::KernelDeltaModel;

namespace {

analysis::NameDiff kernel(const char* name, std::int64_t count_a, std::int64_t total_a,
                          std::int64_t count_b, std::int64_t total_b) {
    analysis::NameDiff k;
    k.name = name;
    k.in_a = count_a > 0, k.in_b = count_b > 0;
    k.a = {count_a, total_a, count_a ? double(total_a) / count_a : 0.0,
           count_a ? double(total_a) : 0.0};
    k.b = {count_b, total_b, count_b ? double(total_b) / count_b : 0.0,
           count_b ? double(total_b) : 0.0};
    k.count_delta = count_b - count_a;
    k.total_delta_ns = total_b - total_a;
    k.mean_delta_ns = k.b.mean_ns - k.a.mean_ns;
    k.p95_delta_ns = k.b.p95_ns - k.a.p95_ns;
    return k;
}

}  // namespace

class KernelDeltaModelTest : public QObject {
    Q_OBJECT

  private slots:
    void textAndAbsentSides() {
        KernelDeltaModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setKernels({kernel("gemm", 2, 10000, 3, 18000), kernel("only_b", 0, 0, 1, 2500)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(KernelDeltaModel::ColumnCount));
        auto text = [&](int r, int c) { return model.index(r, c).data().toString(); };
        QCOMPARE(text(0, KernelDeltaModel::Name), QStringLiteral("gemm"));
        QCOMPARE(text(0, KernelDeltaModel::CountDelta), QStringLiteral("+1"));
        QCOMPARE(text(0, KernelDeltaModel::TotalDelta), QStringLiteral("+0.008 ms"));
        // Means 5000 and 6000 ns: +1000 ns.
        QCOMPARE(text(0, KernelDeltaModel::MeanA), QStringLiteral("0.005 ms"));
        QCOMPARE(text(0, KernelDeltaModel::MeanB), QStringLiteral("0.006 ms"));
        QCOMPARE(text(0, KernelDeltaModel::MeanDelta), QStringLiteral("+0.001 ms"));
        QCOMPARE(
            model.index(0, KernelDeltaModel::MeanDelta).data(KernelDeltaModel::SortRole).toDouble(),
            1000.0);
        QCOMPARE(text(1, KernelDeltaModel::CountA), QStringLiteral("\u2014"));
        QCOMPARE(text(1, KernelDeltaModel::TotalB), QStringLiteral("0.003 ms"));
        model.setUnit(ui::plots::TimeUnit::Microseconds);
        QCOMPARE(text(1, KernelDeltaModel::TotalB), QStringLiteral("2.500 us"));
        QCOMPARE(model.headerData(KernelDeltaModel::P95Delta, Qt::Horizontal).toString(),
                 QStringLiteral("\u0394 P95"));
    }

    void proxySortsByNumberNotText() {
        KernelDeltaModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(KernelDeltaModel::SortRole);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Counts 9, 10 and 100: as text "9" would sort above "100" and "10".
        model.setKernels({kernel("k9", 9, 900, 9, 900), kernel("k100", 100, 100, 100, 100),
                          kernel("k10", 10, 5000, 10, 5000)});
        proxy.sort(KernelDeltaModel::CountA, Qt::DescendingOrder);
        auto name = [&](int r) { return proxy.index(r, KernelDeltaModel::Name).data().toString(); };
        QCOMPARE(name(0), QStringLiteral("k100"));
        QCOMPARE(name(1), QStringLiteral("k10"));
        QCOMPARE(name(2), QStringLiteral("k9"));
        proxy.sort(KernelDeltaModel::TotalA, Qt::AscendingOrder);
        QCOMPARE(name(0), QStringLiteral("k100"));
        QCOMPARE(name(2), QStringLiteral("k10"));
        proxy.sort(KernelDeltaModel::Name, Qt::AscendingOrder);
        QCOMPARE(name(0), QStringLiteral("k10"));
        model.setKernels({});
        QCOMPARE(proxy.rowCount(), 0);
    }
};

QTEST_MAIN(KernelDeltaModelTest)
#include "kernel_delta_model_test.moc"
