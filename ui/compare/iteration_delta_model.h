#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <vector>

#include "analysis/compare/iteration_diff.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {

// The engine iterations of A and B (analysis::diff_iterations; docs/compare.md, Engine
// iterations): per phase, rows for the iteration counts, the windows' P50, P95 and mean,
// then the P50 delta's parts (GPU idle and each kernel role either run has, per
// iteration) and what the mean-based parts leave of it, with A, B and B - A. The P50
// row carries the Mann-Whitney test. SortRole gives numbers.
class IterationDeltaModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    static constexpr int SortRole = Qt::UserRole + 1;
    enum Column { Phase, Quantity, A, B, Delta, PValue, Significant, ColumnCount };

    explicit IterationDeltaModel(QObject* parent = nullptr);
    void setIterations(const analysis::IterationDiff& iterations);
    void setUnit(plots::TimeUnit unit);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    struct Row {
        QString phase;
        QString quantity;
        double a = 0, b = 0, delta = 0;
        bool count = false;   // a number of iterations, not a time
        bool tested = false;  // the P50 row: p_value and significant apply
        double p_value = 0;
        bool significant = false;
    };
    void addPhase(const analysis::PhaseIterationDiff& d);
    QVariant number(const Row& row, int column) const;
    QString text(const Row& row, int column) const;

    std::vector<Row> rows_;
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
};

}  // namespace tokenscope::ui
