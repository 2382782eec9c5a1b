#pragma once

#include <QObject>
#include <QString>
#include <memory>

#include "analysis/run_analysis.h"
#include "open_run.h"

namespace tokenscope::ui {

class BackgroundQuery;

// The one producer of a run's analysis (per-step attribution and verdict,
// analysis::analyse_run) for every view that shows it, as hotspot's parser feeds all
// its views: the Breakdown tab and the Attribution dock read the same result, so a
// run opened in the window is analysed once. The work runs on a BackgroundQuery: it
// never blocks the GUI thread, and a newer run or cancel() stops it.
class RunAnalyzer : public QObject {
    Q_OBJECT
  public:
    explicit RunAnalyzer(QObject* parent = nullptr);

    // Starts analysing `run`, unless it is the run already analysed or being analysed
    // (each view of the window asks for the run it shows). An invalid run stops the
    // live analysis and clears the result.
    void setRun(const OpenRun& run);
    const OpenRun& run() const { return run_; }
    // run()'s analysis once ready(); null while it is computed, after an error or a
    // cancel, and when no run is set.
    std::shared_ptr<const analysis::RunAnalysis> result() const { return result_; }
    // Why the analysis of run() failed; empty unless failed() was emitted for it.
    QString error() const { return error_; }
    bool busy() const;
    QString what() const;
    BackgroundQuery* query() const { return query_; }

  public slots:
    // Drops the live analysis (emits cancelled()); the same run set again restarts it.
    bool cancel();

  signals:
    void started();  // run() changed and its analysis began
    void ready();
    void failed(const QString& message);
    void cancelled();
    void busyChanged(bool busy, const QString& what);

  private:
    OpenRun run_;
    std::shared_ptr<const analysis::RunAnalysis> result_;
    QString error_;
    bool stopped_ = false;  // run()'s analysis was cancelled before it finished
    BackgroundQuery* query_;
};

}  // namespace tokenscope::ui
