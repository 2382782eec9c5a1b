#pragma once

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace tokenscope::ui {

// The read-only tables of the breakdown and compare tabs: whole rows select, no
// row numbers, columns as wide as their contents, alternating row colours.
QTableView* make_row_table(QAbstractItemModel* model, QWidget* parent);

}  // namespace tokenscope::ui
