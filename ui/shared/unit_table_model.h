#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "ui/plots/time_format.h"

namespace tokenscope::ui {

// A read-only table with one row per `Row` whose times print in the user's unit:
// what the phase summary, slow token and verdict rule tables share. Rows are set
// as a whole (a model reset); a unit change repaints only the columns that hold
// times, [firstTimeColumn, lastTimeColumn], and the header.
template <typename Row>
class UnitTableModel : public QAbstractTableModel {
  public:
    UnitTableModel(int columns, int firstTimeColumn, int lastTimeColumn, QObject* parent)
        : QAbstractTableModel(parent),
          columns_(columns),
          firstTimeColumn_(firstTimeColumn),
          lastTimeColumn_(lastTimeColumn) {}

    void setRows(std::vector<Row> rows) {
        beginResetModel();
        rows_ = std::move(rows);
        endResetModel();
    }
    const std::vector<Row>& rows() const { return rows_; }

    void setUnit(plots::TimeUnit unit) {
        unit_ = unit;
        if (!rows_.empty())
            emit this->dataChanged(this->index(0, firstTimeColumn_),
                                   this->index(rowCount() - 1, lastTimeColumn_));
        emit this->headerDataChanged(Qt::Horizontal, 0, columns_ - 1);
    }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : static_cast<int>(rows_.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : columns_;
    }

  protected:
    plots::TimeUnit unit() const { return unit_; }
    // The row behind `index`, or null for an index that is not this model's.
    const Row* rowAt(const QModelIndex& index) const {
        if (!this->checkIndex(index, QAbstractItemModel::CheckIndexOption::IndexIsValid))
            return nullptr;
        return &rows_[static_cast<std::size_t>(index.row())];
    }

  private:
    std::vector<Row> rows_;
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
    int columns_;
    int firstTimeColumn_;
    int lastTimeColumn_;
};

}  // namespace tokenscope::ui
