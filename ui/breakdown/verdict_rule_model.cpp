#include "verdict_rule_model.h"

#include <QFont>
#include <cmath>

#include "verdict_html.h"

namespace tokenscope::ui {

VerdictRuleModel::VerdictRuleModel(QObject* parent)
    : UnitTableModel(ColumnCount, Value, Threshold, parent) {}

QString VerdictRuleModel::format(const analysis::RuleResult& r, double x) const {
    return VerdictHtml::ruleNumber(r, x, unit());
}

QVariant VerdictRuleModel::data(const QModelIndex& index, int role) const {
    const analysis::RuleResult* row = rowAt(index);
    if (!row) return {};
    const auto& r = *row;
    switch (role) {
        case SortRole:
            switch (index.column()) {
                case Rule:
                    return QString::fromStdString(r.name);
                case Value:
                    return r.value;
                case Threshold:
                    return r.threshold;
                default:
                    return r.fired;
            }
        case Qt::ToolTipRole:
            return VerdictHtml::ruleMeaning(r.name);
        case Qt::DisplayRole:
            switch (index.column()) {
                case Rule:
                    return VerdictHtml::ruleName(r.name);
                case Value:
                    return r.available ? VerdictHtml::ruleValue(r, unit()) : tr("n/a (no data)");
                case Threshold:
                    return format(r, r.threshold);
                default:
                    return r.fired ? tr("fired") : QString();
            }
        case Qt::FontRole:
            if (r.fired) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case Qt::TextAlignmentRole:
            return index.column() == Value || index.column() == Threshold
                       ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                       : QVariant();
        default:
            return {};
    }
}

QVariant VerdictRuleModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Rule:
            return tr("Rule");
        case Value:
            return tr("Value");
        case Threshold:
            return tr("Fires above");
        case Fired:
            return tr("Fired");
        default:
            return {};
    }
}

}  // namespace tokenscope::ui
