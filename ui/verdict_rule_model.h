#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "analysis/verdict.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {

// Every verdict rule with the number behind it: rule, measured value, threshold,
// fired. Rules on times (names ending _ns) print in the unit, the others as shares.
class VerdictRuleModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    static constexpr int SortRole = Qt::UserRole + 1;
    enum Column { Rule, Value, Threshold, Fired, ColumnCount };

    explicit VerdictRuleModel(QObject* parent = nullptr);
    void setRules(std::vector<analysis::RuleResult> rules);
    void setUnit(plots::TimeUnit unit);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QString format(const analysis::RuleResult& r, double x) const;

    std::vector<analysis::RuleResult> rules_;
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
};

}  // namespace tokenscope::ui
