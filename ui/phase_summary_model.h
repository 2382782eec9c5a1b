#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "analysis/verdict.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {

// analysis::assess_run's per-phase summary: steps, mean step time and the mean
// time per step of each attribution category. SortRole gives the number in ns.
class PhaseSummaryModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    static constexpr int SortRole = Qt::UserRole + 1;
    enum Column { Phase, Steps, Mean, FirstCategory, ColumnCount = FirstCategory + 6 };

    explicit PhaseSummaryModel(QObject* parent = nullptr);
    void setPhases(std::vector<analysis::PhaseSummary> phases);
    void setUnit(plots::TimeUnit unit);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant value(const analysis::PhaseSummary& p, int column) const;

    std::vector<analysis::PhaseSummary> phases_;
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
};

}  // namespace tokenscope::ui
