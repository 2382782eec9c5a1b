#include "tool_figures_model.h"

#include <QBrush>
#include <QColor>
#include <cmath>

namespace tokenscope::ui {

ToolFiguresModel::ToolFiguresModel(QObject* parent)
    : UnitTableModel(ColumnCount, ToolValue, OurValue, parent) {}

int ToolFiguresModel::flaggedCount() const {
    int n = 0;
    for (const auto& row : rows()) n += row.flagged ? 1 : 0;
    return n;
}

QVariant ToolFiguresModel::data(const QModelIndex& index, int role) const {
    const analysis::FigureCheck* row = rowAt(index);
    if (!row) return {};
    const auto& c = *row;
    const int column = index.column();
    if (role == SortRole) {
        switch (column) {
            case ToolValue:
                return c.tool.value_ns;
            case OurValue:
                return c.ours_ns ? QVariant(*c.ours_ns) : QVariant();
            case Difference:
                return c.difference ? QVariant(*c.difference) : QVariant();
            default:
                break;
        }
    }
    if (role == Qt::ToolTipRole) return QString::fromStdString(c.explanation);
    if (role == Qt::ForegroundRole && column == Verdict && c.flagged)
        return QBrush(QColor(0xd5, 0x5e, 0x00));
    if (role == Qt::TextAlignmentRole)
        return column == ToolValue || column == OurValue || column == Difference
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    if (role != Qt::DisplayRole) return {};
    switch (column) {
        case ToolFigure:
            return QString::fromStdString(c.tool.label + " (" + c.tool.stat + ")");
        case ToolValue:
            return plots::TimeFormat::duration(std::llround(c.tool.value_ns), unit());
        case OurFigure:
            return QString::fromStdString(c.our_label);
        case OurValue:
            return c.ours_ns ? plots::TimeFormat::duration(std::llround(*c.ours_ns), unit())
                             : tr("no samples");
        case Difference:
            return c.difference ? QStringLiteral("%1%2 %")
                                      .arg(*c.difference >= 0 ? QStringLiteral("+") : QString())
                                      .arg(*c.difference * 100.0, 0, 'f', 1)
                                : QString();
        case Verdict:
            return c.flagged ? tr("differs, unexplained")
                             : QString::fromUtf8(analysis::verdict_name(c.verdict).data())
                                   .replace(QLatin1Char('_'), QLatin1Char(' '));
        default:
            return {};
    }
}

QVariant ToolFiguresModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case ToolFigure:
            return tr("The tool's figure");
        case ToolValue:
            return tr("Its value");
        case OurFigure:
            return tr("Tokenscope's figure");
        case OurValue:
            return tr("Ours");
        case Difference:
            return tr("Difference");
        case Verdict:
            return tr("Why");
        default:
            return {};
    }
}

}  // namespace tokenscope::ui
