#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>
#include <type_traits>
#include <utility>

namespace tokenscope::ui {

// One tab's long query (heatmap, attribution, diff) run off the GUI thread.
// The analysis library cannot be interrupted, so cancelling is done by
// generation: every start() or cancel() bumps a counter, and a result whose
// generation is no longer the live one is discarded when it arrives. The
// computation itself runs to its end on the pool, reading shared immutable
// data, and nothing on the GUI thread ever waits for it.
class BackgroundQuery : public QObject {
    Q_OBJECT
  public:
    explicit BackgroundQuery(QObject* parent = nullptr);

    // A new query supersedes any live one; returns its generation.
    quint64 start(const QString& what);
    // The result of `generation` arrived. True when it is the live query, which
    // is then over; false when it is stale and must be dropped.
    bool finish(quint64 generation);
    // Drops the live query, if any: its result will be discarded. Emits
    // cancelled() and returns true when there was one.
    bool cancel();
    // No query is wanted any more (no run open): drops the live one quietly.
    void clear();

    bool busy() const { return busy_; }
    // What the live query does, e.g. "Computing the heatmap…"; empty when idle.
    QString what() const { return busy_ ? what_ : QString(); }
    quint64 generation() const { return generation_; }
    bool isCurrent(quint64 generation) const { return busy_ && generation == generation_; }

    // Runs `work` on the global thread pool and calls `done(result)` on this
    // object's thread, only if the query is still the live one then (busy() is
    // still true inside `done`). `work` must not throw: it reports failure in
    // its result.
    template <typename Work, typename Done>
    quint64 run(const QString& what, Work work, Done done) {
        using Result = std::invoke_result_t<Work>;
        const quint64 gen = start(what);
        auto* watcher = new QFutureWatcher<Result>(this);
        connect(watcher, &QFutureWatcherBase::finished, this,
                [this, watcher, gen, done = std::move(done)]() mutable {
                    watcher->deleteLater();
                    if (!isCurrent(gen)) {
                        finish(gen);  // stale: reported as discarded, never shown
                        return;
                    }
                    // The result goes on screen before busyChanged(false), so a
                    // listener to that edge already sees it.
                    if (watcher->future().resultCount() > 0) done(watcher->result());
                    if (generation_ == gen) finish(gen);
                });
        watcher->setFuture(QtConcurrent::run(std::move(work)));
        return gen;
    }

  signals:
    // Edges only: idle to busy, busy to idle, or a new task text while busy.
    void busyChanged(bool busy, const QString& what);
    void cancelled();
    // A stale result (superseded or cancelled) arrived and was dropped.
    void discarded(quint64 generation);

  private:
    void setBusy(bool busy, const QString& what);

    quint64 generation_ = 0;
    bool busy_ = false;
    QString what_;
};

}  // namespace tokenscope::ui
