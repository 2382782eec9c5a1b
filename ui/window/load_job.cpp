#include "load_job.h"

#include <QElapsedTimer>
#include <exception>

#include "run_loader.h"
#include "ui/shared/worker_pool.h"
#include "ui/timeline/timeline_view.h"

namespace tokenscope::ui {
namespace {

// Progress is sent at most this often, so a fast loader cannot flood the event queue.
constexpr qint64 kProgressIntervalMs = 30;

}  // namespace

LoadJob::LoadJob(QObject* parent)
    : QObject(parent), leave_from_(static_cast<std::int64_t>(TimelineView::kSummaryThreshold)) {
    qRegisterMetaType<OpenRun>();
    qRegisterMetaType<QList<OpenRun>>();
}

LoadJob::~LoadJob() {
    cancel();
    wait();
}

bool LoadJob::running() const {
    return future_.isValid() && !future_.isFinished();
}

void LoadJob::wait() {
    if (future_.isValid()) future_.waitForFinished();
}

void LoadJob::cancel() {
    if (stop_) stop_->store(true);
}

bool LoadJob::start(const QStringList& paths, Combine combine, const QString& step_pattern) {
    if (running() || paths.isEmpty()) return false;
    stop_ = std::make_shared<std::atomic<bool>>(false);
    auto stop = stop_;
    // A join, a merge and a step pattern work on the activities: those runs are read whole.
    const std::int64_t leave = combine || !step_pattern.isEmpty() ? 0 : leave_from_;
    future_ = WorkerPool::instance().run(
        [this, paths, combine = std::move(combine), step_pattern, stop, leave] {
            run_worker(paths, combine, step_pattern, leave, stop);
        });
    return true;
}

// Runs on the worker thread: signals emitted here reach GUI-thread receivers queued.
void LoadJob::run_worker(const QStringList& paths, const Combine& combine,
                         const QString& step_pattern, std::int64_t leave_from,
                         std::shared_ptr<std::atomic<bool>> stop) {
    QList<OpenRun> opened;
    QElapsedTimer since_last;
    since_last.start();
    const qint64 files = paths.size();
    const qint64 parts = files + (combine ? 1 : 0);  // the combine step is one more part
    // Scale to per-mille per part so several files share one bar.
    auto reporter = [&](qint64 part) {
        return [&, part](std::int64_t done, std::int64_t total) {
            if (stop->load()) return false;
            if (since_last.elapsed() >= kProgressIntervalMs) {
                since_last.restart();
                const qint64 share = total > 0 ? done * 1000 / total : 0;
                emit progress(part * 1000 + share, parts * 1000);
            }
            return true;
        };
    };
    auto add = [&](std::vector<trace::RunData>& runs, const QString& path, bool joined) {
        for (std::size_t k = 0; k < runs.size(); ++k) {
            auto data = std::make_shared<const trace::RunData>(std::move(runs[k]));
            auto index = std::make_shared<const TimelineIndex>(*data);
            opened.push_back(OpenRun{path, data, index, step_pattern});
            if (!joined) opened.back().file_run = static_cast<int>(k);
        }
    };
    import::ImportOptions options;
    options.step_pattern = step_pattern.toStdString();
    options.leave_activities_from = leave_from;
    try {
        std::vector<std::vector<trace::RunData>> read;
        std::vector<std::string> names;
        for (qint64 f = 0; f < files; ++f) {
            const QString& path = paths[static_cast<int>(f)];
            auto runs = RunLoader::load(path.toStdString(), reporter(f), options);
            emit progress((f + 1) * 1000, parts * 1000);
            emit fileLoaded(path, static_cast<int>(runs.size()));
            if (stop->load()) throw trace::Cancelled();
            if (!combine) {
                add(runs, path, false);
                continue;
            }
            read.push_back(std::move(runs));
            names.push_back(path.toStdString());
        }
        if (combine) {
            const auto token = trace::StopToken::polling([stop] { return stop->load(); });
            auto runs = combine(std::move(read), names, reporter(files), token);
            if (stop->load()) throw trace::Cancelled();
            for (auto& r : runs) RunLoader::normalize(r);
            add(runs, paths.join(QStringLiteral(" + ")), true);
        }
    } catch (const trace::Cancelled&) {
        emit cancelled();
        return;
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
        return;
    }
    emit finished(opened);
}

}  // namespace tokenscope::ui
