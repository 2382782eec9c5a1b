#pragma once

#include "analysis/attribution/verdict.h"
#include "ui/shared/unit_table_model.h"

namespace tokenscope::ui {

// Every verdict rule with the number behind it: rule (in plain words, the JSON name in
// its tooltip), measured value, threshold, fired. Rules on times (names ending _ns)
// print in the unit, the others as shares.
class VerdictRuleModel : public UnitTableModel<analysis::RuleResult> {
    Q_OBJECT
  public:
    static constexpr int SortRole = Qt::UserRole + 1;
    enum Column { Rule, Value, Threshold, Fired, ColumnCount };

    explicit VerdictRuleModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QString format(const analysis::RuleResult& r, double x) const;
};

}  // namespace tokenscope::ui
