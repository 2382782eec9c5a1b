#pragma once

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace tokenscope::ui {

// The read-only tables of the breakdown and compare tabs: whole rows select, no
// row numbers, alternating row colours, columns fitted to the view (fit_columns).
QTableView* make_row_table(QAbstractItemModel* model, QWidget* parent);

// Columns as wide as their contents and titles while they fit the view's width; when they
// do not, titles elide first, then the widest columns (names, not numbers) give up width
// and elide, so the table never scrolls sideways. An elided cell or title shows its whole
// text as a tooltip. Refits when the view is resized or the model's rows change.
void fit_columns(QTableView* view);

}  // namespace tokenscope::ui
