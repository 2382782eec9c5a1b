#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "result_slot.h"
#include "trace/progress.h"
#include "trace/stop_source.h"
#include "trace/stop_token.h"
#include "worker_pool.h"

namespace tokenscope::ui {

// One tab's long query (heatmap, attribution, diff) run off the GUI thread.
// Every start() supersedes the live query and cancel() or clear() drops it: both
// request a stop on the dropped query's trace::StopToken, which the analysis checks
// every few thousand elements and answers by throwing trace::Cancelled, so the pool
// thread is soon free again. A result that still arrives (finished before the stop
// was seen) is recognised by its generation, which every start(), cancel() and
// clear() bumps, and dropped. Nothing on the GUI thread ever waits for the work.
class BackgroundQuery : public QObject {
    Q_OBJECT
  public:
    explicit BackgroundQuery(QObject* parent = nullptr);
    // Stops the live query: nobody will read its result.
    ~BackgroundQuery() override;

    // A new query supersedes (and stops) any live one; returns its generation.
    quint64 start(const QString& what);
    // The result of `generation` arrived. True when it is the live query, which
    // is then over; false when it is stale and must be dropped.
    bool finish(quint64 generation);
    // Drops and stops the live query, if any: its result will be discarded. Emits
    // cancelled() and returns true when there was one.
    bool cancel();
    // No query is wanted any more (no run open): drops and stops the live one quietly.
    void clear();

    bool busy() const { return busy_; }
    // What the live query does, e.g. "Computing the heatmap…"; empty when idle.
    QString what() const { return busy_ ? what_ : QString(); }
    quint64 generation() const { return generation_; }
    bool isCurrent(quint64 generation) const { return busy_ && generation == generation_; }
    // The stop token of the live query (of the last one when idle).
    trace::StopToken token() const { return stop_.token(); }

    // Runs `work` on the WorkerPool and calls `done(result)` on this
    // object's thread, only if the query is still the live one then (busy() is
    // still true inside `done`). `work` takes the query's `const trace::StopToken&`
    // (or nothing) and passes it to the analysis; it may throw trace::Cancelled,
    // which drops the result silently, and must not throw anything else: it
    // reports failure in its result.
    template <typename Work, typename Done>
    quint64 run(const QString& what, Work work, Done done) {
        using Result = typename WorkResult<Work>::type;
        const quint64 gen = start(what);
        // The result crosses to this thread through `slot`'s mutex, not Qt's result
        // store, so ThreadSanitizer sees the hand-off (worker_pool.h).
        auto slot = std::make_shared<ResultSlot<Result>>();
        auto* watcher = new QFutureWatcher<void>(this);
        connect(watcher, &QFutureWatcherBase::finished, this,
                [this, watcher, gen, slot, done = std::move(done)]() mutable {
                    watcher->deleteLater();
                    if (!isCurrent(gen)) {
                        finish(gen);  // stale: reported as discarded, never shown
                        return;
                    }
                    const std::optional<Result> result = slot->take();
                    if (!result) {
                        cancel();  // the work gave up by itself (Cancelled): nothing to show
                        return;
                    }
                    // The result goes on screen before busyChanged(false), so a
                    // listener to that edge already sees it.
                    done(*result);
                    if (generation_ == gen) finish(gen);
                });
        watcher->setFuture(
            WorkerPool::instance().run([work = std::move(work), stop = token(), slot]() mutable {
                try {
                    if constexpr (std::is_invocable_v<Work&, const trace::StopToken&>)
                        slot->put(work(stop));
                    else
                        slot->put(work());
                } catch (const trace::Cancelled&) {
                    // Nothing in the slot: the query gave up by itself.
                }
            }));
        return gen;
    }

  signals:
    // Edges only: idle to busy, busy to idle, or a new task text while busy.
    void busyChanged(bool busy, const QString& what);
    void cancelled();
    // A stale result (superseded or cancelled) arrived and was dropped.
    void discarded(quint64 generation);

  private:
    template <typename Work, bool = std::is_invocable_v<Work&, const trace::StopToken&>>
    struct WorkResult {
        using type = std::invoke_result_t<Work&, const trace::StopToken&>;
    };
    template <typename Work>
    struct WorkResult<Work, false> {
        using type = std::invoke_result_t<Work&>;
    };

    void setBusy(bool busy, const QString& what);
    // Drops the live query's token: the work polling it stops at its next check.
    void stopLive();

    quint64 generation_ = 0;
    bool busy_ = false;
    QString what_;
    trace::StopSource stop_;
};

}  // namespace tokenscope::ui
