#pragma once

#include <QTableView>

namespace tokenscope::ui {

// A row table whose first column stays in place while the others scroll sideways:
// the kernel name stays beside its numbers however narrow the window (Compare's kernel
// deltas, where real names run to hundreds of characters). A second view over the same
// model and selection draws column 0 on top of this one; the two scroll together
// vertically, and the overlay follows column 0's width and the header's height.
class FrozenColumnTable : public QTableView {
    Q_OBJECT
  public:
    explicit FrozenColumnTable(QAbstractItemModel* model, QWidget* parent = nullptr);

    QTableView* frozenView() const { return frozen_; }

  protected:
    void resizeEvent(QResizeEvent* event) override;
    QModelIndex moveCursor(CursorAction action, Qt::KeyboardModifiers modifiers) override;
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

  private:
    void updateFrozenGeometry();
    void showOnlyFirstColumn();

    QTableView* frozen_;
};

}  // namespace tokenscope::ui
