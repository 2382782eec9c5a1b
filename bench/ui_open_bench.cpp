// Issue 15's open target, measured offscreen through the GUI's own open path: a
// MainWindow opens the 10,000,000-activity benchmark run (bench/decode_run.h) from a
// .tokenscope file to a fully analysed window: the timeline painted, the breakdown
// and both verdicts (Breakdown tab, Attribution dock) shown. Each repetition is a new
// window; the figures are medians over them, with the resident memory per activity
// once everything is shown (run + index + views + analysis), and the process's peak
// resident memory (VmHWM). --file opens an existing file instead (bench/make_large_run's
// runs of any size), left where it is; run one process per file, as the peak is the
// process's. A run large enough to paint from its stored summaries (TimelineView::
// kSummaryThreshold) also gives the time its first frame from them was painted.
// Usage: ui_open_bench [activities (default 10000000)] [repetitions (default 3)]
//        ui_open_bench --file F [repetitions (default 3)]
#include <malloc.h>
#include <sys/resource.h>

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QImage>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "decode_run.h"
#include "store/store_reader.h"
#include "ui/breakdown/attribution_panel.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/timeline/summary_tiles.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"
#include "ui/window/run_loader.h"
// bench/compare_open.sh builds this file in older trees too, whose background work
// ran on Qt's global thread pool.
#if __has_include("ui/shared/worker_pool.h")
#include "ui/shared/worker_pool.h"
#else
#include <QThreadPool>
#endif

using namespace tokenscope;
using namespace tokenscope::bench;

namespace {

struct Open {
    double loaded_ms = -1, painted_ms = -1, breakdown_ms = -1, verdict_ms = -1;
    // A large run's first frame from its stored summaries (ui/timeline/summary_tiles.h);
    // -1 for a run that paints from its activities alone.
    double summary_ms = -1;
    double analysed_ms() const { return std::max({painted_ms, breakdown_ms, verdict_ms}); }
    long rss_delta_kib = 0;
};

// One window opens the file; returns when the timeline is painted and both verdicts
// are on screen (or exits after five minutes).
Open open_once(const QString& path) {
    malloc_trim(0);
    const long before = rss_kib();
    Open o;
    ui::MainWindow window;
    window.resize(1600, 900);
    window.show();
    QImage image(1600, 900, QImage::Format_ARGB32_Premultiplied);
    QEventLoop loop;
    auto check = [&] {
        auto* tiles = window.timelineTab()->view()->summaryTiles();
        // Done when painted from summaries, or when there are none to paint from.
        const bool summarised = tiles == nullptr || o.summary_ms >= 0 ||
                                (o.painted_ms >= 0 && tiles->idle() && tiles->stats().misses == 0);
        if (o.painted_ms >= 0 && o.breakdown_ms >= 0 && o.verdict_ms >= 0 && summarised)
            loop.quit();
    };
    const auto start = Clock::now();
    QObject::connect(&window, &ui::MainWindow::runsOpened, &loop, [&] {
        o.loaded_ms = ms_since(start);
        window.timelineTab()->view()->render(&image);
        o.painted_ms = ms_since(start);
        // The first frame asked for the summary tiles in view; each batch that comes in
        // is painted, as the view does, until a frame is painted from them.
        if (auto* tiles = window.timelineTab()->view()->summaryTiles()) {
            QObject::connect(tiles, &ui::SummaryTiles::tilesArrived, &loop, [&, tiles] {
                if (o.summary_ms >= 0) return;
                window.timelineTab()->view()->render(&image);
                if (tiles->stats().summary_rows > 0) o.summary_ms = ms_since(start);
                check();
            });
        }
        check();
    });
    QObject::connect(window.breakdownTab(), &ui::BreakdownTab::breakdownReady, &loop, [&] {
        o.breakdown_ms = ms_since(start);
        check();
    });
    QObject::connect(window.attributionPanel(), &ui::AttributionPanel::verdictReady, &loop, [&] {
        o.verdict_ms = ms_since(start);
        check();
    });
    QObject::connect(&window, &ui::MainWindow::errorReported, &loop, [&](const QString& m) {
        std::fprintf(stderr, "open failed: %s\n", qPrintable(m));
        std::exit(2);
    });
    QTimer::singleShot(300'000, &loop, [] {
        std::fprintf(stderr, "not analysed within 5 minutes\n");
        std::exit(2);
    });
    window.openFiles({path});
    loop.exec();
    o.rss_delta_kib = rss_kib() - before;
    return o;
}

// The median cost of a frame of the whole run (zoomed out) painted from its activities
// and from its stored summaries (tiles cached), over 10 frames each.
void frame_costs(const QString& path) {
    auto runs = ui::RunLoader::load(path.toStdString(), {});
    if (runs.empty()) return;
    auto data = std::make_shared<const trace::RunData>(std::move(runs[0]));
    ui::OpenRun run{path, data, std::make_shared<const ui::TimelineIndex>(*data)};
    run.file_run = 0;
    QImage image(1600, 900, QImage::Format_ARGB32_Premultiplied);
    auto frame_ms = [&](std::size_t threshold, const char* what) {
        ui::TimelineView view;
        view.setSummaryThreshold(threshold);
        view.resize(1600, 900);
        view.setRun(run);
        if (auto* tiles = view.summaryTiles()) {
            tiles->waitForIdle();  // the levels
            view.render(&image);   // asks for the tiles in view
            tiles->waitForIdle();
        }
        std::vector<double> ms;
        for (int i = 0; i < 10; ++i) {
            const auto start = Clock::now();
            view.render(&image);
            ms.push_back(ms_since(start));
        }
        std::printf("%-52s %10.1f ms\n", what, median(ms));
        if (auto* tiles = view.summaryTiles())
            std::printf("%-52s %10zu / %zu\n", "  tiles cached / lane rows painted from bins",
                        tiles->stats().cached, tiles->stats().summary_rows);
    };
    frame_ms(SIZE_MAX, "zoomed-out frame from activities");
    frame_ms(0, "zoomed-out frame from summaries");
}

// The process's peak resident memory in MiB (ru_maxrss is in KiB on Linux).
double peak_rss_mib() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);  // never the user's real settings
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("TokenscopeBench"));
    QCoreApplication::setApplicationName(QStringLiteral("ui_open_bench"));
    const bool given = argc > 2 && std::strcmp(argv[1], "--file") == 0;
    const int reps = argc > (given ? 3 : 2) ? std::max(1, std::atoi(argv[given ? 3 : 2])) : 3;
    QString path;
    std::size_t activities = 0;
    if (given) {
        path = QString::fromLocal8Bit(argv[2]);
        store::StoreReader reader(path.toStdString());
        for (const auto& r : reader.runs())
            activities += static_cast<std::size_t>(r.activity_count);
    } else {
        const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
        path = QDir::temp().filePath(QStringLiteral("ui_open_bench.tokenscope"));
        activities = write_decode_run(path.toStdString(), n);
    }
    std::printf("run: %zu activities in %s\n", activities, qPrintable(path));
    std::vector<double> loaded, painted, summary, breakdown, verdict, analysed, bytes;
    for (int r = 0; r < reps; ++r) {
        const Open o = open_once(path);
        // Work the window left on the pool (a heatmap) must not overlap the next open.
#if __has_include("ui/shared/worker_pool.h")
        ui::WorkerPool::instance().waitForIdle();
#else
        QThreadPool::globalInstance()->waitForDone();
#endif
        QCoreApplication::processEvents();
        std::printf(
            "open %d: loaded %.0f ms, painted %.0f ms, from summaries %.0f ms, breakdown %.0f ms, "
            "verdict %.0f ms\n",
            r + 1, o.loaded_ms, o.painted_ms, o.summary_ms, o.breakdown_ms, o.verdict_ms);
        loaded.push_back(o.loaded_ms);
        painted.push_back(o.painted_ms);
        summary.push_back(o.summary_ms);
        breakdown.push_back(o.breakdown_ms);
        verdict.push_back(o.verdict_ms);
        analysed.push_back(o.analysed_ms());
        bytes.push_back(o.rss_delta_kib * 1024.0 / static_cast<double>(activities));
    }
    if (!given) QFile::remove(path);
    std::printf("\nmedians over %d opens of %zu activities\n", reps, activities);
    std::printf("%-52s %10.0f ms\n", "file read and indexed (runs in the list)", median(loaded));
    std::printf("%-52s %10.0f ms\n", "timeline painted", median(painted));
    std::printf("%-52s %10.0f ms\n", "timeline painted from summaries (-1: none)", median(summary));
    std::printf("%-52s %10.0f ms\n", "breakdown and its verdict shown", median(breakdown));
    std::printf("%-52s %10.0f ms\n", "attribution dock's verdict shown", median(verdict));
    std::printf("%-52s %10.0f ms\n", "fully analysed window", median(analysed));
    std::printf("%-52s %10.1f B\n", "resident memory per activity, analysed", median(bytes));
    std::printf("%-52s %10.0f MiB\n", "peak resident memory of the process", peak_rss_mib());
    if (given) frame_costs(path);
    return 0;
}
