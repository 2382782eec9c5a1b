// The Breakdown tab's kernel-role table on a hand-made breakdown: columns follow the
// run's phases, rows the roles with GPU time, and the model passes Qt's own checks.
#include <QAbstractItemModelTester>
#include <QTest>

#include "ui/breakdown/role_summary_model.h"

using namespace tokenscope;
using analysis::KernelRole;

class RoleSummaryModelTest : public QObject {
    Q_OBJECT

    // Two decode steps and one prefill: GEMM 6 ms and attention 2 ms in decode,
    // GEMM 9 ms in prefill; no other role has time.
    static analysis::RoleBreakdown breakdown() {
        analysis::RoleBreakdown b;
        analysis::PhaseRoles prefill;
        prefill.phase = trace::Phase::Prefill;
        prefill.steps = 1;
        prefill.total.ns[std::size_t(KernelRole::Gemm)] = 9'000'000;
        prefill.mean_ns[std::size_t(KernelRole::Gemm)] = 9e6;
        analysis::PhaseRoles decode;
        decode.phase = trace::Phase::Decode;
        decode.steps = 2;
        decode.total.ns[std::size_t(KernelRole::Gemm)] = 6'000'000;
        decode.total.ns[std::size_t(KernelRole::Attention)] = 2'000'000;
        decode.mean_ns[std::size_t(KernelRole::Gemm)] = 3e6;
        decode.mean_ns[std::size_t(KernelRole::Attention)] = 1e6;
        b.phases = {prefill, decode};
        b.run.ns[std::size_t(KernelRole::Gemm)] = 15'000'000;
        b.run.ns[std::size_t(KernelRole::Attention)] = 2'000'000;
        return b;
    }

  private slots:
    void rowsAndColumnsFollowTheBreakdown() {
        ui::RoleSummaryModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setBreakdown(breakdown());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 5);  // role, prefill, decode, run total, share
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(),
                 QStringLiteral("prefill per step"));
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("GEMM"));
        QCOMPARE(model.index(0, 2).data(ui::RoleSummaryModel::SortRole).toDouble(), 3e6);
        QCOMPARE(model.index(0, 3).data(ui::RoleSummaryModel::SortRole).toDouble(), 15e6);
        // 15 of 17 ms: 88.2 %.
        QCOMPARE(model.index(0, 4).data(ui::RoleSummaryModel::SortRole).toDouble(), 15.0 / 17.0);
        QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("Attention"));
        QCOMPARE(model.index(1, 1).data(ui::RoleSummaryModel::SortRole).toDouble(), 0.0);
        model.setTimeUnit(ui::plots::TimeUnit::Microseconds);
        QVERIFY2(model.index(0, 2).data().toString().contains(QStringLiteral("3000")),
                 qPrintable(model.index(0, 2).data().toString()));
        model.setBreakdown({});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 3);
    }
};

QTEST_MAIN(RoleSummaryModelTest)
#include "role_summary_model_test.moc"
