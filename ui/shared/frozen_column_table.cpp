#include "frozen_column_table.h"

#include <QHeaderView>
#include <QScrollBar>

namespace tokenscope::ui {

FrozenColumnTable::FrozenColumnTable(QAbstractItemModel* model, QWidget* parent)
    : QTableView(parent), frozen_(new QTableView(this)) {
    setModel(model);
    verticalHeader()->hide();
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);

    frozen_->setModel(model);
    frozen_->setSelectionModel(selectionModel());
    frozen_->setFocusPolicy(Qt::NoFocus);
    frozen_->verticalHeader()->hide();
    frozen_->setSelectionBehavior(QAbstractItemView::SelectRows);
    frozen_->setAlternatingRowColors(true);
    frozen_->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    frozen_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen_->setVerticalScrollMode(verticalScrollMode());
    frozen_->setStyleSheet(QStringLiteral("QTableView { border: none; }"));
    viewport()->stackUnder(frozen_);
    // Sorting from either header sorts the one model; the overlay's header mirrors it.
    frozen_->horizontalHeader()->setSortIndicatorShown(true);
    connect(frozen_->horizontalHeader(), &QHeaderView::sectionClicked, this,
            [this](int section) { emit horizontalHeader()->sectionClicked(section); });
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, frozen_->horizontalHeader(),
            &QHeaderView::setSortIndicator);

    connect(horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int section, int, int size) {
                if (section != 0) return;
                frozen_->setColumnWidth(0, size);
                updateFrozenGeometry();
            });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int row, int, int size) { frozen_->setRowHeight(row, size); });
    connect(frozen_->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, frozen_->verticalScrollBar(),
            &QAbstractSlider::setValue);
    // Columns come and go with the model (a reset, a new run): only the first is shown.
    connect(model, &QAbstractItemModel::modelReset, this, [this] { showOnlyFirstColumn(); });
    connect(model, &QAbstractItemModel::columnsInserted, this, [this] { showOnlyFirstColumn(); });
    connect(model, &QAbstractItemModel::layoutChanged, this, [this] { showOnlyFirstColumn(); });
    showOnlyFirstColumn();
    frozen_->show();
}

void FrozenColumnTable::showOnlyFirstColumn() {
    for (int c = 1; c < model()->columnCount(); ++c) frozen_->setColumnHidden(c, true);
    frozen_->setColumnWidth(0, columnWidth(0));
    updateFrozenGeometry();
}

void FrozenColumnTable::updateFrozenGeometry() {
    frozen_->setGeometry(verticalHeader()->width() + frameWidth(), frameWidth(), columnWidth(0),
                         viewport()->height() + horizontalHeader()->height());
}

void FrozenColumnTable::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    updateFrozenGeometry();
}

// Moving left with the keyboard must not hide the current cell under the overlay.
QModelIndex FrozenColumnTable::moveCursor(CursorAction action, Qt::KeyboardModifiers modifiers) {
    const QModelIndex current = QTableView::moveCursor(action, modifiers);
    if (action == MoveLeft && current.column() > 0 &&
        visualRect(current).topLeft().x() < frozen_->columnWidth(0)) {
        const int shift = horizontalScrollBar()->value() + visualRect(current).topLeft().x() -
                          frozen_->columnWidth(0);
        horizontalScrollBar()->setValue(shift);
    }
    return current;
}

void FrozenColumnTable::scrollTo(const QModelIndex& index, ScrollHint hint) {
    if (index.column() > 0) QTableView::scrollTo(index, hint);
}

}  // namespace tokenscope::ui
