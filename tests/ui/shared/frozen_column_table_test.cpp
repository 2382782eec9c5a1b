// The table whose first column stays while the others scroll (Compare's kernel deltas):
// after scrolling right the name is still drawn at the left edge, both views share one
// selection, and they scroll together vertically.
#include <QImage>
#include <QScrollBar>
#include <QStandardItemModel>
#include <QTest>

#include "ui/shared/frozen_column_table.h"

using tokenscope::ui::FrozenColumnTable;

class FrozenColumnTableTest : public QObject {
    Q_OBJECT

    // 60 rows: a long name, then 12 number columns.
    static QStandardItemModel* model(QObject* parent) {
        auto* m = new QStandardItemModel(60, 13, parent);
        for (int r = 0; r < 60; ++r) {
            m->setItem(r, 0,
                       new QStandardItem(QStringLiteral("kernel_%1_with_a_long_name").arg(r)));
            for (int c = 1; c < 13; ++c)
                m->setItem(r, c, new QStandardItem(QStringLiteral("%1.000 ms").arg(r * 100 + c)));
        }
        return m;
    }

  private slots:
    void firstColumnStaysWhileTheOthersScroll() {
        FrozenColumnTable table(model(this));
        table.resize(400, 300);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QTableView* frozen = table.frozenView();
        QVERIFY(frozen->isVisible());
        for (int c = 1; c < 13; ++c) QVERIFY(frozen->isColumnHidden(c));
        QCOMPARE(frozen->columnWidth(0), table.columnWidth(0));
        QVERIFY(table.horizontalScrollBar()->maximum() > 0);  // the numbers do not fit
        table.horizontalScrollBar()->setValue(table.horizontalScrollBar()->maximum());
        // The main view's column 0 has scrolled out of sight; the overlay still shows it.
        QVERIFY(table.columnViewportPosition(0) < 0);
        QCOMPARE(frozen->columnViewportPosition(0), 0);
        QCOMPARE(frozen->geometry().width(), table.columnWidth(0));
        // One selection, one vertical position.
        table.selectRow(7);
        QVERIFY(frozen->selectionModel()->isRowSelected(7, {}));
        table.verticalScrollBar()->setValue(10);
        QCOMPARE(frozen->verticalScrollBar()->value(), 10);
        frozen->verticalScrollBar()->setValue(20);
        QCOMPARE(table.verticalScrollBar()->value(), 20);
    }
};

QTEST_MAIN(FrozenColumnTableTest)
#include "frozen_column_table_test.moc"
