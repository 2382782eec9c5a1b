#pragma once

#include "analysis/join/slow_tokens.h"
#include "ui/shared/unit_table_model.h"

namespace tokenscope::ui {

// Tokens of a joined run with what made them late (analysis::slowest_tokens): request,
// token, ITL, iteration, its batch, the dominant category and its share, top kernels by
// their short name. StepRole gives the token's index into run.steps.
class SlowTokenModel : public UnitTableModel<analysis::SlowToken> {
    Q_OBJECT
  public:
    static constexpr int StepRole = Qt::UserRole + 1;
    enum Column { Request, Token, Itl, Iteration, Batch, Dominant, Kernels, ColumnCount };

    explicit SlowTokenModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant text(const analysis::SlowToken& t, int column) const;
};

}  // namespace tokenscope::ui
