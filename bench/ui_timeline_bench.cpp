// Issue 3's GUI targets, measured offscreen:
//  - TimelineView paint of a 10,000,000-activity run at 1600x900: median frame time
//    zoomed fully out and at three zoom levels in (target <= 16 ms);
//  - opening a 1,000,000-activity .tokenscope file through LoadJob to the first
//    painted timeline (<= 1 s), and the worst event-loop latency meanwhile, seen by
//    a 1 ms QTimer measuring its own lateness (<= 50 ms);
//  - resident memory per activity while the 10M run is open (<= 48 bytes), with a
//    kernel launch per kernel as real captures have, and the launch table's own bytes
//    per kernel.
// Usage: ui_timeline_bench [activities (default 10000000)] [file activities (default 1000000)]
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "decode_run.h"
#include "ui/shared/open_run.h"
#include "ui/timeline/timeline_index.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/load_job.h"
#include "ui/window/run_loader.h"

using namespace tokenscope;
using namespace tokenscope::bench;

namespace {

ui::OpenRun open_in_memory(trace::RunData run) {
    ui::RunLoader::normalize(run);
    auto data = std::make_shared<const trace::RunData>(std::move(run));
    return ui::OpenRun{QStringLiteral("memory"), data,
                       std::make_shared<const ui::TimelineIndex>(*data)};
}

double median_frame_ms(ui::TimelineView& view, QImage& image, int frames) {
    std::vector<double> times;
    for (int i = 0; i < frames; ++i) {
        const auto t = Clock::now();
        view.render(&image);
        times.push_back(ms_since(t));
    }
    return median(times);
}

struct Row {
    std::string what;
    double value;
    std::string unit;
    double target;
};

void paint_figures(std::size_t activities, std::vector<Row>& rows) {
    const long before = rss_kib();
    ui::OpenRun run = open_in_memory(decode_run(activities));
    const std::size_t n = run.data->activities.size();
    ui::TimelineView view;
    view.resize(1600, 900);
    view.setRun(run);
    const long after = rss_kib();
    QImage image(1600, 900, QImage::Format_ARGB32_Premultiplied);
    view.render(&image);  // warm caches and fonts
    const std::int64_t t0 = run.index->min_time(), t1 = run.index->max_time();
    const std::int64_t span = t1 - t0, mid = t0 + span / 2;
    std::printf("run: %zu activities, %zu steps, %.1f s of trace\n", n, run.data->steps.size(),
                span / 1e9);
    view.fitAll();
    rows.push_back({"paint, fully out", median_frame_ms(view, image, 15), "ms", 16});
    for (double f : {1e-2, 1e-4, 1e-6}) {
        const auto half = static_cast<std::int64_t>(span * f / 2);
        view.showRange(mid - half, mid + half);
        char what[64];
        if (half * 2 >= 1'000'000)
            std::snprintf(what, sizeof what, "paint, %.0f ms window", half * 2 / 1e6);
        else
            std::snprintf(what, sizeof what, "paint, %.0f us window", half * 2 / 1e3);
        rows.push_back({what, median_frame_ms(view, image, 15), "ms", 16});
    }
    rows.push_back({"resident memory per activity (run + index + view)",
                    (after - before) * 1024.0 / static_cast<double>(n), "bytes", 48});
    std::printf("sizeof(trace::Activity) = %zu bytes\n", sizeof(trace::Activity));
    const trace::LaunchTable& launches = run.data->launches;
    std::printf("launch table: %zu kernels, %zu configurations, %zu bytes\n", launches.size(),
                launches.configuration_count(), launches.memory_bytes());
    // 8 bytes per kernel; the configurations add a few hundred bytes in all.
    rows.push_back({"launch table per kernel (8 B + configurations)",
                    static_cast<double>(launches.memory_bytes()) /
                        static_cast<double>(std::max<std::size_t>(launches.size(), 1)),
                    "bytes", 9});
}

void load_figures(std::size_t activities, std::vector<Row>& rows) {
    const QString path = QDir::temp().filePath(QStringLiteral("ui_timeline_bench.tokenscope"));
    write_decode_run(path.toStdString(), activities);
    ui::TimelineView view;
    view.resize(1600, 900);
    view.show();
    QImage image(1600, 900, QImage::Format_ARGB32_Premultiplied);
    ui::LoadJob job;
    QEventLoop loop;
    double open_ms = -1;
    QString failure;
    const auto start = Clock::now();
    QObject::connect(&job, &ui::LoadJob::finished, &loop, [&](const QList<ui::OpenRun>& runs) {
        view.setRun(runs.front());
        view.render(&image);  // the first painted timeline
        open_ms = ms_since(start);
        loop.quit();
    });
    QObject::connect(&job, &ui::LoadJob::failed, &loop, [&](const QString& m) {
        failure = m;
        loop.quit();
    });
    // A 1 ms timer measures how late it fires: the GUI thread's worst stall.
    double worst_ms = 0;
    QElapsedTimer tick;
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    timer.setInterval(1);
    QObject::connect(&timer, &QTimer::timeout, [&] {
        worst_ms = std::max(worst_ms, tick.nsecsElapsed() / 1e6 - 1.0);
        tick.restart();
    });
    tick.start();
    timer.start();
    job.start({path});
    loop.exec();
    timer.stop();
    QFile::remove(path);
    if (!failure.isEmpty()) {
        std::fprintf(stderr, "load failed: %s\n", qPrintable(failure));
        std::exit(2);
    }
    rows.push_back({"open 1M-activity file to first painted timeline", open_ms, "ms", 1000});
    rows.push_back({"worst event-loop latency while opening", worst_ms, "ms", 50});
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const std::size_t paint_n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
    const std::size_t load_n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1'000'000;
    std::vector<Row> rows;
    load_figures(load_n, rows);  // first, so the 10M run's pages do not skew it
    paint_figures(paint_n, rows);
    std::printf("\n%-52s %12s %8s  %s\n", "figure", "value", "target", "met");
    for (const Row& r : rows)
        std::printf("%-52s %9.2f %-3s %6.0f %-3s %s\n", r.what.c_str(), r.value, r.unit.c_str(),
                    r.target, r.unit == "bytes" ? "B" : r.unit.c_str(),
                    r.value <= r.target ? "yes" : "NO");
    return 0;
}
