#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <string>
#include <vector>

#include "analysis/sweep/sweep_summary.h"

namespace tokenscope::ui {

// The sweep's points, one row each: the axes' values, the counted runs, and the
// medians over repeats of attainment, TTFT, TPOT and throughput (the spread in
// the tooltip). Times in ms.
class SweepPointModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    using QAbstractTableModel::QAbstractTableModel;

    void setPoints(std::vector<analysis::SweepPointSummary> points, std::vector<std::string> axes);
    const analysis::SweepPointSummary* point(int row) const;
    int rowOfPoint(std::int32_t point) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    // The table as shown, with a header row; false with `error` naming the file.
    bool saveCsv(const QString& path, QString* error = nullptr) const;

  private:
    QString text(int row, int column) const;

    std::vector<analysis::SweepPointSummary> points_;
    std::vector<std::string> axes_;
};

}  // namespace tokenscope::ui
