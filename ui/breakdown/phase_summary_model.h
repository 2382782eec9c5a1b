#pragma once

#include "analysis/attribution/verdict.h"
#include "ui/shared/unit_table_model.h"

namespace tokenscope::ui {

// analysis::assess_run's per-phase summary: steps, mean step time and the mean
// time per step of each attribution category. SortRole gives the number in ns.
class PhaseSummaryModel : public UnitTableModel<analysis::PhaseSummary> {
    Q_OBJECT
  public:
    static constexpr int SortRole = Qt::UserRole + 1;
    enum Column { Phase, Steps, Mean, FirstCategory, ColumnCount = FirstCategory + 6 };

    explicit PhaseSummaryModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant value(const analysis::PhaseSummary& p, int column) const;
};

}  // namespace tokenscope::ui
