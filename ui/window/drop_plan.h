#pragma once

#include <QString>
#include <QStringList>
#include <optional>

#include "load_job.h"

class QMimeData;

namespace tokenscope::ui {

// What dropping files on the main window means, decided from their content (never
// their names): one file opens; a load generator's result (AIPerf, GenAI-Perf,
// guidellm, LLMPerf: import/client) with one server trace or .tokenscope run opens as
// one joined run; several PyTorch-profiler traces of distinct ranks (their heads'
// distributedInfo) open as one merged run; any other two files are compared.
class DropPlan {
  public:
    enum class Action { Open, Compare, Join, Merge };
    enum class Role { Store, Client, Trace, Unknown };

    static DropPlan decide(const QStringList& paths);
    // The local files of a drop, in order.
    static QStringList paths_of(const QMimeData* mime);
    // What one file is; Unknown when it cannot be read or no importer knows it.
    static Role role_of(const QString& path);
    // The rank a PyTorch profiler (Kineto) trace names in its distributedInfo.
    static std::optional<int> rank_of(const QString& path);

    Action action() const { return action_; }
    // In the order they open: for Join the client first, then the server.
    const QStringList& paths() const { return paths_; }
    // The load job's combine step for Join and Merge; empty otherwise.
    LoadJob::Combine combine() const;

  private:
    Action action_ = Action::Open;
    QStringList paths_;
};

}  // namespace tokenscope::ui
