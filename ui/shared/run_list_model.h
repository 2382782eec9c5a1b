#pragma once

#include <QAbstractListModel>
#include <QList>

#include "open_run.h"

namespace tokenscope::ui {

// The runs list on the left: one row per open run (name, source, GPU).
// A model run is labelled "(model)" everywhere: it is a cost model, not a measurement.
class RunListModel : public QAbstractListModel {
    Q_OBJECT
  public:
    enum Role { PathRole = Qt::UserRole + 1, SourceRole, GpuRole, IsModelRole };

    explicit RunListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Appends the runs; returns the row of the first one.
    int append(const QList<OpenRun>& runs);
    void remove(int row);
    // Puts `runs` where the runs opened from `path` were (appended when none was), the
    // other rows kept: a file re-opened with a step pattern. Returns the row of the first.
    int replace(const QString& path, const QList<OpenRun>& runs);
    void clear();
    const OpenRun& run(int row) const { return runs_[row]; }
    // Row of the first run opened from `path`, or -1.
    int find_path(const QString& path) const;

  private:
    QList<OpenRun> runs_;
};

}  // namespace tokenscope::ui
