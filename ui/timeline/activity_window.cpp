#include "activity_window.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <algorithm>
#include <exception>
#include <mutex>
#include <string>
#include <utility>

#include "store/store_reader.h"
#include "ui/shared/result_slot.h"
#include "ui/shared/worker_pool.h"

namespace tokenscope::ui {
namespace {

// Thrown by the read's callback to end it at ActivityWindow::kMaxActivities.
struct Full {};

}  // namespace

// What the background tasks share with the view: one task at a time reads under the
// mutex, with a reader opened on the first (the file as it is, no migration; the activity
// chunks are walked by the reader before their first read).
struct ActivityWindow::Producer {
    std::mutex mutex;
    bool stop = false;
    std::string path;
    int file_run = -1;
    std::shared_ptr<const trace::RunData> run;
    std::unique_ptr<store::StoreReader> reader;
    std::int64_t run_id = -1;

    // What a finished task hands the GUI thread (result_slot.h says why not a queued functor).
    struct Delivery {
        std::unique_ptr<Stretch> stretch;
        QString error;
    };
    ResultSlot<Delivery> delivery;

    void open() {
        if (reader) return;
        // No walk of every activity chunk before the first stretch (seconds at a billion
        // activities): a damaged page fails the read that meets it, which the view says.
        // Not mapped: mapped pages of a file of gigabytes would count in the window's memory.
        auto r = std::make_unique<store::StoreReader>(path, store::ReaderOptions::stretches());
        const auto ids = r->run_ids();
        if (file_run < 0 || static_cast<std::size_t>(file_run) >= ids.size() ||
            ids[static_cast<std::size_t>(file_run)] != run->info.id)
            throw std::runtime_error(path + ": the run is no longer in the file");
        run_id = ids[static_cast<std::size_t>(file_run)];
        reader = std::move(r);
    }

    // The stretch's activities in (lane, start) order, as TimelineIndex needs them.
    std::unique_ptr<Stretch> read(const Ask& ask) {
        open();
        auto s = std::make_unique<Stretch>();
        s->covers = ask;
        s->data = std::make_unique<trace::RunData>();
        s->data->info = run->info;
        s->data->strings = run->strings;
        s->data->lanes = run->lanes;
        auto& acts = s->data->activities;
        try {
            for (const std::uint16_t lane : ask.lanes)
                reader->for_each_activity(run_id, lane, ask.t0, ask.t1, [&](const auto& a) {
                    if (acts.size() >= kMaxActivities) throw Full{};
                    acts.push_back(a);
                });
        } catch (const Full&) {
            s->truncated = true;
        }
        s->index = std::make_unique<TimelineIndex>(*s->data);
        return s;
    }
};

ActivityWindow::ActivityWindow(const QString& path, int file_run,
                               std::shared_ptr<const trace::RunData> run, QObject* parent)
    : QObject(parent), producer_(std::make_shared<Producer>()) {
    producer_->path = path.toStdString();
    producer_->file_run = file_run;
    producer_->run = std::move(run);
    connect(&watcher_, &QFutureWatcherBase::finished, this, &ActivityWindow::collect);
}

ActivityWindow::~ActivityWindow() {
    {
        std::lock_guard lock(producer_->mutex);
        producer_->stop = true;
    }
    running_.waitForFinished();
}

bool ActivityWindow::holds(const Ask& want) const {
    if (!stretch_) return false;
    const Ask& have = stretch_->covers;
    if (want.t0 < have.t0 || want.t1 > have.t1) return false;
    return std::all_of(want.lanes.begin(), want.lanes.end(), [&](std::uint16_t lane) {
        return std::find(have.lanes.begin(), have.lanes.end(), lane) != have.lanes.end();
    });
}

bool ActivityWindow::want(const std::vector<std::uint16_t>& lanes, std::int64_t t0,
                          std::int64_t t1) {
    const Ask ask{lanes, t0, t1};
    if (lanes.empty() || holds(ask)) {
        ++stats_.hits;
        return true;
    }
    // Asked already (being read, or next): nothing more to do until it arrives.
    auto same = [&](const std::optional<Ask>& a) {
        return a && a->lanes == lanes && a->t0 <= t0 && a->t1 >= t1;
    };
    if (same(reading_) || same(queued_) || same(failed_)) return false;
    ++stats_.misses;
    const std::int64_t w = std::max<std::int64_t>(t1 - t0, 1);
    // Only the latest view matters: a stretch asked for earlier and not begun is dropped.
    queued_ = Ask{lanes, t0 > INT64_MIN + w ? t0 - w : t0, t1 < INT64_MAX - w ? t1 + w : t1};
    start();
    return false;
}

void ActivityWindow::start() {
    if (busy_ || !queued_) return;
    busy_ = true;
    reading_ = std::exchange(queued_, std::nullopt);
    running_ = WorkerPool::instance().run([p = producer_, ask = *reading_] {
        std::lock_guard lock(p->mutex);
        if (p->stop) return;
        Producer::Delivery d;
        try {
            d.stretch = p->read(ask);
        } catch (const std::exception& e) {
            d.error = QString::fromUtf8(e.what());  // a corrupt chunk: the view says why
        }
        p->delivery.put(std::move(d));
    });
    watcher_.setFuture(running_);
}

void ActivityWindow::collect() {
    busy_ = false;
    auto d = producer_->delivery.take();
    if (d) {
        stats_.error = d->error;
        if (!d->error.isEmpty()) failed_ = reading_;
        if (d->stretch) {
            ++stats_.reads;
            stats_.activities = d->stretch->data->activities.size();
            stats_.truncated = d->stretch->truncated;
            stretch_ = std::move(d->stretch);
        }
    }
    reading_.reset();
    start();
    emit arrived();
}

void ActivityWindow::waitForIdle() {
    const QDeadlineTimer deadline(30'000);
    while (!idle() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

}  // namespace tokenscope::ui
