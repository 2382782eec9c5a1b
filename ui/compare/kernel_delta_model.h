#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "analysis/compare/diff.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {

// Per-kernel deltas of analysis::diff_runs (kernels matched by name): count,
// total, mean and P95 in A and B with B - A. SortRole gives the raw number (ns
// or count), so a QSortFilterProxyModel sorts numerically; Qt::DisplayRole is text.
// The name column shows the short name (analysis::short_kernel_name), at most
// kNameChars characters (Tensile's Cijk_* names run to hundreds with nothing to drop),
// " #k" where two kernels would read the same; its tooltip and FullNameRole (what the
// filter matches) give the full name.
class KernelDeltaModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int FullNameRole = Qt::UserRole + 2;
    static constexpr qsizetype kNameChars = 60;
    enum Column {
        Name,
        CountA,
        CountB,
        CountDelta,
        TotalA,
        TotalB,
        TotalDelta,
        MeanA,
        MeanB,
        MeanDelta,
        P95A,
        P95B,
        P95Delta,
        ColumnCount
    };

    explicit KernelDeltaModel(QObject* parent = nullptr);
    void setKernels(std::vector<analysis::NameDiff> kernels);
    void setUnit(plots::TimeUnit unit);
    const analysis::NameDiff& kernel(int row) const {
        return kernels_[static_cast<std::size_t>(row)];
    }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    static QVariant number(const analysis::NameDiff& k, int column);
    QString text(const analysis::NameDiff& k, int column) const;

    std::vector<analysis::NameDiff> kernels_;
    std::vector<QString> labels_;  // the name column's text, one per kernel
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
};

}  // namespace tokenscope::ui
