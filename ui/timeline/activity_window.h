#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "timeline_index.h"
#include "trace/run_data.h"

namespace tokenscope::ui {

// The activities a zoomed-in view shows of a run left in its file (trace::RunData::in_file,
// DESIGN.md section 17): one stretch of time on the lanes that need them, read by a
// background producer with a reader of its own (never on the GUI thread), kept as a run of
// its own (the run's lanes and names, those activities) with its TimelineIndex, which the
// painter and the hit tests use instead of the whole run's. A stretch is the view with a
// view's width either side, so panning stays inside it for a while; a view that leaves it
// asks for the next, and arrived() says when to paint again. Lanes zoomed out far enough
// paint from their SummaryTiles and need none, which bounds a stretch: a lane needs its
// activities only where its finest summary bins (about 32 activities) are over 2 px wide.
class ActivityWindow : public QObject {
    Q_OBJECT
  public:
    // At most this many activities in a stretch (~200 MB with their index); a stretch
    // that would hold more is cut there, on the lanes read last (Stats::truncated).
    static constexpr std::size_t kMaxActivities = 4'000'000;

    // Run `file_run` (its position in the file) of the .tokenscope file at `path`; `run` is
    // the run as the loader read it, without its activities.
    ActivityWindow(const QString& path, int file_run, std::shared_ptr<const trace::RunData> run,
                   QObject* parent = nullptr);
    ~ActivityWindow() override;  // waits for the producer

    // The stretch read, indexed; nullptr until one has arrived. Indices of activities are
    // into its run() and change when the next stretch arrives (arrived()).
    const TimelineIndex* index() const { return stretch_ ? stretch_->index.get() : nullptr; }
    // The view shows [t0, t1) and needs the activities of `lanes` there: true when the
    // stretch read holds them; else asks for them and returns false.
    bool want(const std::vector<std::uint16_t>& lanes, std::int64_t t0, std::int64_t t1);

    struct Stats {
        std::size_t hits = 0;        // want() found what it asked for in the stretch
        std::size_t misses = 0;      // it did not, and asked the producer
        std::size_t reads = 0;       // stretches read
        std::size_t activities = 0;  // in the stretch now
        bool truncated = false;      // the stretch now was cut at kMaxActivities
        QString error;               // why the last read failed (a corrupt chunk), or empty
    };
    Stats stats() const { return stats_; }
    // No read running or asked for.
    bool idle() const { return !busy_ && !queued_; }
    // Processes events until idle(), at most 30 s; tests and benchmarks only.
    void waitForIdle();

  signals:
    // A stretch came in (or its read failed): a paint now shows more.
    void arrived();

  private:
    struct Ask {
        std::vector<std::uint16_t> lanes;
        std::int64_t t0 = 0;
        std::int64_t t1 = 0;
    };
    struct Stretch {
        std::unique_ptr<trace::RunData> data;  // the index points into it
        std::unique_ptr<TimelineIndex> index;
        Ask covers;
        bool truncated = false;
    };
    struct Producer;
    bool holds(const Ask& want) const;
    void start();
    void collect();

    std::shared_ptr<Producer> producer_;
    QFuture<void> running_;
    QFutureWatcher<void> watcher_;  // finished: collect() what the task delivered
    std::unique_ptr<Stretch> stretch_;
    std::optional<Ask> queued_;   // the latest stretch asked for, not yet being read
    std::optional<Ask> reading_;  // the one being read
    std::optional<Ask> failed_;   // the last one whose read failed: not asked again
    Stats stats_;
    bool busy_ = false;
};

}  // namespace tokenscope::ui
