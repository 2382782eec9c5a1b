#include "row_table.h"

#include <QHeaderView>
#include <QTableView>

namespace tokenscope::ui {

QTableView* make_row_table(QAbstractItemModel* model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->verticalHeader()->hide();
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->setAlternatingRowColors(true);
    return view;
}

}  // namespace tokenscope::ui
