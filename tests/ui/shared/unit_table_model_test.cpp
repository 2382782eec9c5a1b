// The base of the phase summary, slow token and verdict rule tables: rows set as
// a whole, and a unit change that repaints only the columns holding times.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

#include "ui/breakdown/slow_token_model.h"
#include "ui/breakdown/verdict_rule_model.h"

using namespace tokenscope;

class UnitTableModelTest : public QObject {
    Q_OBJECT
  private slots:
    void slowTokensRepaintOnlyTheItlColumn() {
        ui::SlowTokenModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        analysis::SlowToken a;
        a.request = 7;
        a.index = 3;
        a.itl_ns = 2'500'000;
        analysis::SlowToken b = a;
        b.index = 4;
        b.itl_ns = 40'000;
        model.setRows({a, b});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, ui::SlowTokenModel::Itl).data().toString(),
                 QStringLiteral("2.500 ms"));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setUnit(ui::plots::TimeUnit::Microseconds);
        QCOMPARE(changed.count(), 1);
        const auto from = changed.at(0).at(0).value<QModelIndex>();
        const auto to = changed.at(0).at(1).value<QModelIndex>();
        QCOMPARE(from.row(), 0);
        QCOMPARE(to.row(), 1);
        QCOMPARE(from.column(), int(ui::SlowTokenModel::Itl));
        QCOMPARE(to.column(), int(ui::SlowTokenModel::Itl));
        QCOMPARE(model.index(1, ui::SlowTokenModel::Itl).data().toString(),
                 QStringLiteral("40.000 us"));
    }

    void emptyRowsEmitNoDataChangedAndForeignIndexesGiveNothing() {
        ui::VerdictRuleModel model;
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setUnit(ui::plots::TimeUnit::Microseconds);
        QCOMPARE(changed.count(), 0);
        analysis::RuleResult r;
        r.name = "queue_wait_ns";
        r.value = 1.5e6;
        r.threshold = 1e6;
        r.fired = true;
        r.available = true;
        model.setRows({r});
        ui::SlowTokenModel other;
        other.setRows({analysis::SlowToken{}});
        QVERIFY(!model.data(other.index(0, 0)).isValid());
        QCOMPARE(model.index(0, ui::VerdictRuleModel::Fired).data().toString(),
                 QStringLiteral("fired"));
    }
};

QTEST_MAIN(UnitTableModelTest)
#include "unit_table_model_test.moc"
