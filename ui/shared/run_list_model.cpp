#include "run_list_model.h"

#include <QFileInfo>

#include "trace/run_label.h"

namespace tokenscope::ui {
namespace {

QString gpu_text(const trace::RunData& run) {
    return run.info.gpu.name.empty() ? QStringLiteral("no GPU")
                                     : QString::fromStdString(run.info.gpu.name);
}

QString source_text(const trace::RunData& run) {
    return QString::fromUtf8(trace::to_string(run.info.source).data(),
                             static_cast<qsizetype>(trace::to_string(run.info.source).size()));
}

QString tooltip(const OpenRun& r) {
    const auto& run = *r.data;
    QString text = QStringLiteral("<b>%1</b><br>source: %2<br>GPU: %3<br>file: %4<br>%5 activities")
                       .arg(r.name().toHtmlEscaped(), source_text(run),
                            gpu_text(run).toHtmlEscaped(), r.path.toHtmlEscaped())
                       .arg(static_cast<qlonglong>(run.activity_totals().activities()));
    if (run.info.is_model())
        text += QStringLiteral(
            "<br><i>A cost model of the workload on this GPU, "
            "not a measurement.</i>");
    if (!run.info.complete)
        text += QStringLiteral("<br><i>Incomplete: the capture did not finish.</i>");
    return text;
}

}  // namespace

RunListModel::RunListModel(QObject* parent) : QAbstractListModel(parent) {}

int RunListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

QVariant RunListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.parent().isValid() || index.row() >= runs_.size()) return {};
    const OpenRun& r = runs_[index.row()];
    const auto& run = *r.data;
    switch (role) {
        case Qt::DisplayRole: {
            const QString name = QString::fromStdString(
                trace::run_label(run.info, QFileInfo(r.path).fileName().toStdString()));
            return QStringLiteral("%1\n%2 · %3").arg(name, source_text(run), gpu_text(run));
        }
        case Qt::ToolTipRole:
            return tooltip(r);
        case PathRole:
            return r.path;
        case SourceRole:
            return source_text(run);
        case GpuRole:
            return gpu_text(run);
        case IsModelRole:
            return run.info.is_model();
        default:
            return {};
    }
}

QHash<int, QByteArray> RunListModel::roleNames() const {
    auto roles = QAbstractListModel::roleNames();
    roles[PathRole] = "path";
    roles[SourceRole] = "source";
    roles[GpuRole] = "gpu";
    roles[IsModelRole] = "isModel";
    return roles;
}

int RunListModel::append(const QList<OpenRun>& runs) {
    const int first = static_cast<int>(runs_.size());
    if (runs.isEmpty()) return first;
    beginInsertRows(QModelIndex(), first, first + static_cast<int>(runs.size()) - 1);
    runs_.append(runs);
    endInsertRows();
    return first;
}

void RunListModel::remove(int row) {
    if (row < 0 || row >= runs_.size()) return;
    beginRemoveRows(QModelIndex(), row, row);
    runs_.removeAt(row);
    endRemoveRows();
}

int RunListModel::replace(const QString& path, const QList<OpenRun>& runs) {
    const int first = find_path(path);
    if (first < 0) return append(runs);
    for (int row = static_cast<int>(runs_.size()) - 1; row >= first; --row)
        if (runs_[row].path == path) remove(row);
    if (runs.isEmpty()) return first;
    beginInsertRows(QModelIndex(), first, first + static_cast<int>(runs.size()) - 1);
    for (int i = 0; i < runs.size(); ++i) runs_.insert(first + i, runs[i]);
    endInsertRows();
    return first;
}

void RunListModel::clear() {
    beginResetModel();
    runs_.clear();
    endResetModel();
}

int RunListModel::find_path(const QString& path) const {
    for (int i = 0; i < runs_.size(); ++i)
        if (runs_[i].path == path) return i;
    return -1;
}

}  // namespace tokenscope::ui
