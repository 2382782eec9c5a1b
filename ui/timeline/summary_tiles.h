#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "store/timeline_summary.h"

namespace tokenscope::ui {

// The stored timeline summaries of one run (DESIGN.md section 17), for painting a
// zoomed-out timeline without its activities: tiles of kTileBins bins of one lane and
// level, read by a background producer with a reader of its own (never on the GUI
// thread) and kept in an LRU cache of at most kMaxTiles tiles (~30 MB). A paint takes
// what is cached and asks for the rest; tilesArrived() says when to paint again.
class SummaryTiles : public QObject {
    Q_OBJECT
  public:
    static constexpr std::int64_t kTileBins = 256;
    static constexpr std::size_t kMaxTiles = 2048;

    // Run `file_run` (its position in the file) of the .tokenscope file at `path`, with
    // `lanes` lanes. The levels are read in the background; until they are (or when the
    // file has no summaries) levels() is empty.
    SummaryTiles(const QString& path, int file_run, std::size_t lanes, QObject* parent = nullptr);
    ~SummaryTiles() override;  // waits for the producer

    // A lane's summary levels, finest first; empty until read or without summaries.
    const std::vector<store::SummaryLevel>& levels(std::size_t lane) const;
    // Appends the cached bins of `level` overlapping [t0, t1) to `out`, in bin order, and
    // asks the producer for the tiles not cached; true when none was missing.
    bool bins(std::size_t lane, int level, std::int64_t t0, std::int64_t t1,
              std::vector<store::SummaryBin>& out);

    struct Stats {
        std::size_t hits = 0;          // tiles found in the cache
        std::size_t misses = 0;        // tiles asked of the producer
        std::size_t fetched = 0;       // tiles the producer read
        std::size_t cached = 0;        // tiles in the cache now
        std::size_t summary_rows = 0;  // lane rows painted from bins (TimelinePainter)
    };
    Stats stats() const;
    // The painter drew a lane row from bins.
    void countSummaryRow() { ++stats_.summary_rows; }
    // The levels are read, or the file has none.
    bool opened() const { return done_opening_ || failed_; }
    // The levels are read (or the file has none) and no tile is being read or asked for.
    bool idle() const;
    // Processes events until idle(), at most 30 s; tests and benchmarks only.
    void waitForIdle();

  signals:
    // Levels or tiles came in: a paint now shows more.
    void tilesArrived();

  private:
    using Key = std::tuple<std::size_t, int, std::int64_t>;  // lane, level, tile
    struct Producer;
    void request(const Key& key);
    void start();
    void collect();
    void fail();
    void take(std::vector<std::vector<store::SummaryLevel>> levels,
              std::vector<std::pair<Key, std::vector<store::SummaryBin>>> tiles);

    std::shared_ptr<Producer> producer_;
    QFuture<void> running_;
    QFutureWatcher<void> watcher_;  // finished: collect() what the task delivered
    std::vector<std::vector<store::SummaryLevel>> levels_;
    // The cache: most recently used first; the map points into the list.
    std::list<std::pair<Key, std::vector<store::SummaryBin>>> lru_;
    std::map<Key, decltype(lru_)::iterator> tiles_;
    std::set<Key> asked_;  // requested, not yet arrived
    std::vector<Key> queue_;
    Stats stats_;
    bool busy_ = false;          // a task is reading
    bool done_opening_ = false;  // the levels are in
    bool failed_ = false;        // no summaries to read: the file, the run or its summaries
};

}  // namespace tokenscope::ui
