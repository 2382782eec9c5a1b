#pragma once

#include <array>
#include <vector>

#include "analysis/attribution/role_breakdown.h"
#include "ui/shared/unit_table_model.h"

namespace tokenscope::ui {

// One row of the kernel-role table: a role's mean GPU time per step in each phase that
// occurs, its time over the whole run and its share of the run's GPU time.
struct RoleSummaryRow {
    analysis::KernelRole role = analysis::KernelRole::Other;
    std::vector<double> phase_mean_ns;  // parallel to RoleSummaryModel::phases()
    std::int64_t run_ns = 0;
    double share = 0.0;
};

// analysis::RoleBreakdown as a table (docs/engine-traces.md, Kernel roles): the roles
// with any GPU time, in role order; columns Role, one per phase ("decode ms per step"),
// Run total, Share. SortRole gives numbers.
class RoleSummaryModel : public UnitTableModel<RoleSummaryRow> {
    Q_OBJECT
  public:
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit RoleSummaryModel(QObject* parent = nullptr);

    // Rebuilds the rows and the phase columns from one run's breakdown.
    void setBreakdown(const analysis::RoleBreakdown& roles);
    const std::vector<trace::Phase>& phases() const { return phases_; }
    // setUnit for a table whose time columns depend on the run's phases.
    void setTimeUnit(plots::TimeUnit unit);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant value(const RoleSummaryRow& row, int column) const;

    std::vector<trace::Phase> phases_;
};

}  // namespace tokenscope::ui
