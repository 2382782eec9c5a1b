#include "kernel_delta_model.h"

#include <QHash>
#include <cmath>

#include "analysis/kernel_name.h"

namespace tokenscope::ui {
namespace {

// The short names cut to `chars`, then " #k" (k-th in list order) on those that read
// alike: distinct_short_kernel_names numbers names that shorten alike, and this numbers
// those the cut made alike.
std::vector<QString> name_labels(const std::vector<analysis::NameDiff>& kernels, qsizetype chars) {
    std::vector<std::string> full;
    full.reserve(kernels.size());
    for (const auto& k : kernels) full.push_back(k.name);
    std::vector<QString> out;
    QHash<QString, int> seen;
    for (const std::string& name : analysis::distinct_short_kernel_names(full)) {
        QString label = QString::fromStdString(name);
        if (label.size() > chars) label = label.left(chars - 1) + QChar(0x2026);
        ++seen[label];
        out.push_back(label);
    }
    QHash<QString, int> next;
    for (QString& label : out)
        if (seen.value(label) > 1) label += QStringLiteral(" #%1").arg(++next[label]);
    return out;
}

}  // namespace

KernelDeltaModel::KernelDeltaModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelDeltaModel::setKernels(std::vector<analysis::NameDiff> kernels) {
    beginResetModel();
    kernels_ = std::move(kernels);
    labels_ = name_labels(kernels_, kNameChars);
    endResetModel();
}

void KernelDeltaModel::setUnit(plots::TimeUnit unit) {
    unit_ = unit;
    if (!kernels_.empty()) emit dataChanged(index(0, TotalA), index(rowCount() - 1, P95Delta));
}

int KernelDeltaModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(kernels_.size());
}

int KernelDeltaModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelDeltaModel::number(const analysis::NameDiff& k, int column) {
    switch (column) {
        case Name:
            return QString::fromStdString(k.name);
        case CountA:
            return static_cast<qlonglong>(k.a.count);
        case CountB:
            return static_cast<qlonglong>(k.b.count);
        case CountDelta:
            return static_cast<qlonglong>(k.count_delta);
        case TotalA:
            return static_cast<qlonglong>(k.a.total_ns);
        case TotalB:
            return static_cast<qlonglong>(k.b.total_ns);
        case TotalDelta:
            return static_cast<qlonglong>(k.total_delta_ns);
        case MeanA:
            return k.a.mean_ns;
        case MeanB:
            return k.b.mean_ns;
        case MeanDelta:
            return k.mean_delta_ns;
        case P95A:
            return k.a.p95_ns;
        case P95B:
            return k.b.p95_ns;
        case P95Delta:
            return k.p95_delta_ns;
        default:
            return {};
    }
}

QString KernelDeltaModel::text(const analysis::NameDiff& k, int column) const {
    if (column == Name) return QString::fromStdString(k.name);
    // A side where the kernel never ran reads as absent, not as zero time.
    const bool a_side = column == CountA || column == TotalA || column == MeanA || column == P95A;
    const bool b_side = column == CountB || column == TotalB || column == MeanB || column == P95B;
    if ((a_side && !k.in_a) || (b_side && !k.in_b)) return QStringLiteral("\u2014");
    const QVariant v = number(k, column);
    const bool delta =
        column == CountDelta || column == TotalDelta || column == MeanDelta || column == P95Delta;
    const QString sign = delta && v.toDouble() > 0 ? QStringLiteral("+") : QString();
    if (column == CountA || column == CountB || column == CountDelta)
        return sign + QString::number(v.toLongLong());
    QString out = sign + plots::TimeFormat::duration(std::llround(v.toDouble()), unit_);
    // A run read from its file has each P95 from a histogram: the cell says how close.
    const double error = column == P95A ? k.a.p95_error : column == P95B ? k.b.p95_error : 0.0;
    if (error > 0) out += QStringLiteral(" \u00b1%1%").arg(error * 100.0, 0, 'f', 1);
    return out;
}

QVariant KernelDeltaModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const auto& k = kernels_[static_cast<std::size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return index.column() == Name ? labels_[static_cast<std::size_t>(index.row())]
                                          : text(k, index.column());
        case Qt::ToolTipRole:
            if (index.column() == Name) return QString::fromStdString(k.name);
            if ((index.column() == P95A && k.a.p95_error > 0) ||
                (index.column() == P95B && k.b.p95_error > 0))
                return tr(
                    "From a duration histogram of the run's file (a run too large to read "
                    "whole): within the stated bound of the exact P95.");
            return {};
        case FullNameRole:
            return QString::fromStdString(k.name);
        case SortRole:
            return number(k, index.column());
        case Qt::TextAlignmentRole:
            return index.column() == Name ? QVariant()
                                          : QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
    }
}

QVariant KernelDeltaModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kNames[] = {
        "Kernel", "Count A", "Count B",     "\u0394 count", "Total A", "Total B",   "\u0394 total",
        "Mean A", "Mean B",  "\u0394 mean", "P95 A",        "P95 B",   "\u0394 P95"};
    return section >= 0 && section < ColumnCount ? tr(kNames[section]) : QVariant();
}

}  // namespace tokenscope::ui
