#include "sweep_point_model.h"

#include <QFile>
#include <QTextStream>
#include <cmath>

namespace tokenscope::ui {
namespace {

struct Figure {
    const char* key;
    const char* header;
    double scale;  // stored ns shown as ms; attainment as %
    int decimals;
};

constexpr Figure kFigures[] = {
    {"attainment", "attainment %", 100.0, 1}, {"ttft_p50", "TTFT P50 ms", 1e-6, 3},
    {"ttft_p99", "TTFT P99 ms", 1e-6, 3},     {"tpot_p50", "TPOT P50 ms", 1e-6, 3},
    {"tpot_p99", "TPOT P99 ms", 1e-6, 3},     {"throughput_tok_s", "tok/s", 1.0, 1},
};
constexpr int kFigureCount = static_cast<int>(std::size(kFigures));

QString csv_field(QString s) {
    if (!s.contains(u',') && !s.contains(u'"') && !s.contains(u'\n')) return s;
    return u'"' + s.replace(u'"', QStringLiteral("\"\"")) + u'"';
}

}  // namespace

void SweepPointModel::setPoints(std::vector<analysis::SweepPointSummary> points,
                                std::vector<std::string> axes) {
    const bool same_columns = axes == axes_;
    if (same_columns && points.size() == points_.size()) {
        // An SLA edit changes numbers only: keep the view's selection and scroll.
        points_ = std::move(points);
        if (!points_.empty())
            emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        return;
    }
    beginResetModel();
    points_ = std::move(points);
    axes_ = std::move(axes);
    endResetModel();
}

const analysis::SweepPointSummary* SweepPointModel::point(int row) const {
    return row >= 0 && row < rowCount() ? &points_[static_cast<std::size_t>(row)] : nullptr;
}

int SweepPointModel::rowOfPoint(std::int32_t point) const {
    for (int r = 0; r < rowCount(); ++r)
        if (points_[static_cast<std::size_t>(r)].point == point) return r;
    return -1;
}

int SweepPointModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(points_.size());
}

int SweepPointModel::columnCount(const QModelIndex& parent) const {
    // point, the axes, runs, the figures
    return parent.isValid() ? 0 : 2 + static_cast<int>(axes_.size()) + kFigureCount;
}

QString SweepPointModel::text(int row, int column) const {
    const auto& p = points_[static_cast<std::size_t>(row)];
    const int naxes = static_cast<int>(axes_.size());
    if (column == 0) return QString::number(p.point);
    if (column <= naxes) {
        auto it = p.params.find(axes_[static_cast<std::size_t>(column - 1)]);
        return it == p.params.end() ? QString() : QString::fromStdString(it->second);
    }
    if (column == naxes + 1) return QString::number(p.run_ids.size());
    const Figure& f = kFigures[column - naxes - 2];
    auto it = p.median.find(f.key);
    if (it == p.median.end() || std::isnan(it->second)) return QString();
    return QString::number(it->second * f.scale, 'f', f.decimals);
}

QVariant SweepPointModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const int naxes = static_cast<int>(axes_.size());
    if (role == Qt::DisplayRole) return text(index.row(), index.column());
    if (role == Qt::TextAlignmentRole && index.column() > naxes)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() > naxes + 1) {
        const Figure& f = kFigures[index.column() - naxes - 2];
        const auto& p = points_[static_cast<std::size_t>(index.row())];
        auto it = p.spread.find(f.key);
        if (it == p.spread.end()) return {};
        return tr("median over %1 run(s); spread (std) %2")
            .arg(p.run_ids.size())
            .arg(it->second * f.scale, 0, 'f', f.decimals);
    }
    return {};
}

QVariant SweepPointModel::headerData(int section, Qt::Orientation o, int role) const {
    if (role != Qt::DisplayRole || o != Qt::Horizontal) return {};
    if (section < 0 || section >= columnCount()) return {};
    const int naxes = static_cast<int>(axes_.size());
    if (section == 0) return tr("point");
    if (section <= naxes)
        return QString::fromStdString(axes_[static_cast<std::size_t>(section - 1)]);
    if (section == naxes + 1) return tr("runs");
    return QString::fromLatin1(kFigures[section - naxes - 2].header);
}

bool SweepPointModel::saveCsv(const QString& path, QString* error) const {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
        if (error) *error = tr("%1: %2").arg(path, file.errorString());
        return false;
    }
    QTextStream out(&file);
    QStringList cells;
    for (int c = 0; c < columnCount(); ++c)
        cells << csv_field(headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    out << cells.join(u',') << '\n';
    for (int r = 0; r < rowCount(); ++r) {
        cells.clear();
        for (int c = 0; c < columnCount(); ++c) cells << csv_field(text(r, c));
        out << cells.join(u',') << '\n';
    }
    out.flush();
    if (file.error() != QFile::NoError) {
        if (error) *error = tr("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

}  // namespace tokenscope::ui
