// The runs list model: Qt's model checks, labels of model runs, rows as runs come and go.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "../hand_run.h"
#include "ui/shared/run_list_model.h"

using namespace tokenscope;

class RunListModelTest : public QObject {
    Q_OBJECT
  private slots:
    void passesTheModelTester() {
        ui::RunListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.append({test::open_run(test::hand_run("a"), "/x/a.tokenscope"),
                      test::open_run(test::hand_run("b"), "/x/b.tokenscope")});
        model.append({test::open_run(test::hand_run("c"), "/x/c.tokenscope")});
        QCOMPARE(model.rowCount(), 3);
        model.remove(1);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.data(model.index(1), ui::RunListModel::PathRole).toString(),
                 QStringLiteral("/x/c.tokenscope"));
        model.remove(7);  // out of range: nothing happens
        QCOMPARE(model.rowCount(), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void showsNameSourceAndGpu() {
        ui::RunListModel model;
        model.append({test::open_run(test::hand_run("decode run"), "/x/a.tokenscope")});
        const QString text = model.data(model.index(0)).toString();
        QVERIFY(text.contains(QStringLiteral("decode run")));
        QVERIFY(text.contains(QStringLiteral("cuda")));
        QVERIFY(text.contains(QStringLiteral("H100")));
        QVERIFY(!text.contains(QStringLiteral("(model)")));
        QCOMPARE(model.data(model.index(0), ui::RunListModel::IsModelRole).toBool(), false);
        QCOMPARE(model.find_path(QStringLiteral("/x/a.tokenscope")), 0);
        QCOMPARE(model.find_path(QStringLiteral("/x/none")), -1);
    }

    void labelsModelRuns() {
        ui::RunListModel model;
        model.append({test::open_run(test::hand_run("h200 preset", trace::Source::Model),
                                     "/x/m.tokenscope")});
        QVERIFY(
            model.data(model.index(0)).toString().contains(QStringLiteral("h200 preset (model)")));
        QVERIFY(model.data(model.index(0), Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("not a measurement")));
        QCOMPARE(model.data(model.index(0), ui::RunListModel::IsModelRole).toBool(), true);
    }

    void signalsInsertedRows() {
        ui::RunListModel model;
        QSignalSpy spy(&model, &QAbstractItemModel::rowsInserted);
        model.append({test::open_run(test::hand_run())});
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy[0][1].toInt(), 0);
        QCOMPARE(spy[0][2].toInt(), 0);
        model.append({});  // nothing to add: no signal
        QCOMPARE(spy.count(), 1);
    }
};

QTEST_MAIN(RunListModelTest)
#include "run_list_model_test.moc"
