#pragma once

#include <QFuture>
#include <QList>
#include <QObject>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "trace/progress.h"
#include "trace/stop_token.h"
#include "ui/shared/open_run.h"

namespace tokenscope::ui {

// Opens files on a worker thread (KDAB hotspot style): the GUI thread only
// receives progress and the finished runs, and never waits for a file.
// All files of one job open, or none: a bad file leaves the window as it was.
class LoadJob : public QObject {
    Q_OBJECT
  public:
    explicit LoadJob(QObject* parent = nullptr);
    ~LoadJob() override;  // cancels and waits for the worker

    // Makes the runs of all files into others on the worker once they are read (a
    // join of client and server, a merge of ranks): per file its runs, and the paths.
    using Combine = std::function<std::vector<trace::RunData>(
        std::vector<std::vector<trace::RunData>> files, const std::vector<std::string>& paths,
        const trace::ProgressFn& progress, const trace::StopToken& stop)>;

    // Returns false (and does nothing) while another load is running. With `combine`,
    // the files' runs become the runs it returns, which open under the paths joined by
    // " + "; its progress is the last part of the bar, and Cancel stops it too. A
    // non-empty `step_pattern` (a regex) frames the steps of every file instead of the
    // iteration presets; the runs carry it (OpenRun::step_pattern).
    bool start(const QStringList& paths, Combine combine = {}, const QString& step_pattern = {});
    void cancel();
    bool running() const;
    // A .tokenscope run of at least this many activities, with their totals stored, opens
    // without them (trace::RunData::in_file): its timeline reads what it shows from the
    // file (ActivityWindow). Not for a join, a merge or a step pattern, which need them.
    // 0: every run whole. From the next start() on.
    void setLeaveActivitiesFrom(std::int64_t activities) { leave_from_ = activities; }
    std::int64_t leaveActivitiesFrom() const { return leave_from_; }
    // Blocks until the worker is done; for tests and shutdown only.
    void wait();

  signals:
    void progress(qint64 done, qint64 total);
    // Staged result: one file is read and indexed (the job may still fail later).
    void fileLoaded(const QString& path, int runs);
    void finished(const QList<tokenscope::ui::OpenRun>& runs);
    void failed(const QString& message);
    void cancelled();

  private:
    void run_worker(const QStringList& paths, const Combine& combine, const QString& step_pattern,
                    std::int64_t leave_from, std::shared_ptr<std::atomic<bool>> stop);

    QFuture<void> future_;
    std::shared_ptr<std::atomic<bool>> stop_;
    std::int64_t leave_from_;
};

}  // namespace tokenscope::ui
