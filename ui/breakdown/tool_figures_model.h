#pragma once

#include "analysis/metrics/client_figures.h"
#include "ui/shared/unit_table_model.h"

namespace tokenscope::ui {

// A load generator's own figures beside ours (docs/metrics.md, Load generators' own
// figures): one row per figure its file reported, with the definition each uses, the
// difference and whether the definitions explain it. SortRole gives numbers.
class ToolFiguresModel : public UnitTableModel<analysis::FigureCheck> {
    Q_OBJECT
  public:
    static constexpr int SortRole = Qt::UserRole + 1;
    enum Column { ToolFigure, ToolValue, OurFigure, OurValue, Difference, Verdict, ColumnCount };

    explicit ToolFiguresModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    // How many rows a difference the definitions do not explain has flagged.
    int flaggedCount() const;
};

}  // namespace tokenscope::ui
