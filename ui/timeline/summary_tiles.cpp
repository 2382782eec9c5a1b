#include "summary_tiles.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <exception>
#include <mutex>
#include <optional>
#include <utility>

#include "store/store_reader.h"
#include "ui/shared/result_slot.h"
#include "ui/shared/worker_pool.h"

namespace tokenscope::ui {
namespace {
constexpr int kTileLog2 = 8;  // kTileBins == 1 << kTileLog2
}  // namespace

// What the background tasks share with the view: one task at a time reads under the
// mutex, with a reader opened on the first (the file as it is: no migration here, and
// no walk over the activity chunks the run loader reads and checks itself).
struct SummaryTiles::Producer {
    std::mutex mutex;
    bool stop = false;
    std::string path;
    int file_run = -1;
    std::size_t lanes = 0;
    std::unique_ptr<store::StoreReader> reader;
    std::int64_t run_id = -1;
    std::vector<std::vector<store::SummaryLevel>> levels;

    // What a finished task hands the GUI thread, read when the task's future finishes
    // (result_slot.h says why not through a queued functor).
    struct Delivery {
        bool failed = false;
        std::vector<std::vector<store::SummaryLevel>> levels;
        std::vector<std::pair<Key, std::vector<store::SummaryBin>>> tiles;
    };
    ResultSlot<Delivery> delivery;

    // Opens the reader on the first call; false when the file or run cannot be read.
    bool open() {
        if (reader) return true;
        try {
            // Walks the run's rows and its summaries, not the activities the loader reads.
            auto r = std::make_unique<store::StoreReader>(
                path, store::ReaderOptions{.migrate = false, .check_whole_file = false});
            const auto ids = r->run_ids();
            if (file_run < 0 || static_cast<std::size_t>(file_run) >= ids.size()) return false;
            run_id = ids[static_cast<std::size_t>(file_run)];
            if (!r->has_summaries(run_id)) return false;
            for (std::size_t l = 0; l < lanes; ++l)
                levels.push_back(r->summary_levels(run_id, static_cast<std::uint16_t>(l)));
            reader = std::move(r);
            return true;
        } catch (const std::exception&) {
            return false;
        }
    }

    std::vector<store::SummaryBin> tile(const Key& key) const {
        const auto [lane, level, index] = key;
        const int s = levels[lane][static_cast<std::size_t>(level)].bin_log2();
        const std::int64_t t0 = (index << kTileLog2) << s, t1 = ((index + 1) << kTileLog2) << s;
        try {
            return reader->summary_bins(run_id, static_cast<std::uint16_t>(lane), level, t0, t1);
        } catch (const std::exception&) {
            return {};  // a corrupt chunk paints as an empty stretch; the file's views say why
        }
    }
};

SummaryTiles::SummaryTiles(const QString& path, int file_run, std::size_t lanes, QObject* parent)
    : QObject(parent), producer_(std::make_shared<Producer>()) {
    producer_->path = path.toStdString();
    producer_->file_run = file_run;
    producer_->lanes = lanes;
    connect(&watcher_, &QFutureWatcherBase::finished, this, &SummaryTiles::collect);
    start();  // reads the levels
}

SummaryTiles::~SummaryTiles() {
    {
        std::lock_guard lock(producer_->mutex);
        producer_->stop = true;
    }
    running_.waitForFinished();
}

const std::vector<store::SummaryLevel>& SummaryTiles::levels(std::size_t lane) const {
    // A function-local static: built on first use, so no global constructor runs at load.
    static const std::vector<store::SummaryLevel> no_levels;
    return lane < levels_.size() ? levels_[lane] : no_levels;
}

bool SummaryTiles::bins(std::size_t lane, int level, std::int64_t t0, std::int64_t t1,
                        std::vector<store::SummaryBin>& out) {
    const auto& lv = levels(lane);
    if (level < 0 || static_cast<std::size_t>(level) >= lv.size() || t1 <= t0) return true;
    const int s = lv[static_cast<std::size_t>(level)].bin_log2();
    const std::int64_t bin0 = t0 >> s, bin1 = (t1 - 1) >> s;
    bool complete = true;
    for (std::int64_t tile = bin0 >> kTileLog2; tile <= (bin1 >> kTileLog2); ++tile) {
        const Key key{lane, level, tile};
        const auto it = tiles_.find(key);
        if (it == tiles_.end()) {
            complete = false;
            request(key);
            continue;
        }
        ++stats_.hits;
        lru_.splice(lru_.begin(), lru_, it->second);
        for (const auto& b : it->second->second)
            if (b.bin >= bin0 && b.bin <= bin1) out.push_back(b);
    }
    start();
    return complete;
}

void SummaryTiles::request(const Key& key) {
    if (!asked_.insert(key).second) return;
    ++stats_.misses;
    queue_.push_back(key);
}

// One task at a time: the levels first, then the tiles asked since the last one.
void SummaryTiles::start() {
    if (busy_ || (done_opening_ && queue_.empty()) || failed_) return;
    busy_ = true;
    std::vector<Key> keys = std::exchange(queue_, {});
    running_ = WorkerPool::instance().run([p = producer_, keys = std::move(keys)] {
        std::lock_guard lock(p->mutex);
        if (p->stop) return;
        Producer::Delivery d;
        if (!p->open()) {
            d.failed = true;
        } else {
            d.levels = p->levels;
            for (const Key& key : keys) d.tiles.emplace_back(key, p->tile(key));
        }
        p->delivery.put(std::move(d));
    });
    watcher_.setFuture(running_);
}

void SummaryTiles::collect() {
    std::optional<Producer::Delivery> d = producer_->delivery.take();
    if (!d) return;  // stopped before reading
    if (d->failed) {
        fail();
        return;
    }
    take(std::move(d->levels), std::move(d->tiles));
}

void SummaryTiles::fail() {
    busy_ = false;
    failed_ = true;
}

void SummaryTiles::take(std::vector<std::vector<store::SummaryLevel>> levels,
                        std::vector<std::pair<Key, std::vector<store::SummaryBin>>> tiles) {
    busy_ = false;
    if (!done_opening_) levels_ = std::move(levels);
    done_opening_ = true;
    for (auto& [key, read] : tiles) {
        asked_.erase(key);
        ++stats_.fetched;
        if (tiles_.count(key) != 0) continue;
        lru_.emplace_front(key, std::move(read));
        tiles_[key] = lru_.begin();
        if (lru_.size() > kMaxTiles) {
            tiles_.erase(lru_.back().first);
            lru_.pop_back();
        }
    }
    start();
    emit tilesArrived();
}

SummaryTiles::Stats SummaryTiles::stats() const {
    Stats s = stats_;
    s.cached = lru_.size();
    return s;
}

bool SummaryTiles::idle() const {
    return failed_ || (done_opening_ && !busy_ && queue_.empty());
}

void SummaryTiles::waitForIdle() {
    const QDeadlineTimer deadline(30'000);
    while (!idle() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

}  // namespace tokenscope::ui
