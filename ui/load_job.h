#pragma once

#include <QFuture>
#include <QList>
#include <QObject>
#include <QStringList>
#include <atomic>
#include <memory>

#include "open_run.h"

namespace tokenscope::ui {

// Opens files on a worker thread (KDAB hotspot style): the GUI thread only
// receives progress and the finished runs, and never waits for a file.
// All files of one job open, or none: a bad file leaves the window as it was.
class LoadJob : public QObject {
    Q_OBJECT
  public:
    explicit LoadJob(QObject* parent = nullptr);
    ~LoadJob() override;  // cancels and waits for the worker

    // Returns false (and does nothing) while another load is running.
    bool start(const QStringList& paths);
    void cancel();
    bool running() const;
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
    void run_worker(const QStringList& paths, std::shared_ptr<std::atomic<bool>> stop);

    QFuture<void> future_;
    std::shared_ptr<std::atomic<bool>> stop_;
};

}  // namespace tokenscope::ui
