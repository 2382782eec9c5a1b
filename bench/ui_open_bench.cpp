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
#include <unistd.h>

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QImage>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "decode_run.h"
#include "store/store_reader.h"
#include "ui/breakdown/attribution_panel.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/timeline/activity_window.h"
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
    double painted_age_ms = -1;  // the process's age then (process_age_ms)
    double analysed_ms() const { return std::max({painted_ms, breakdown_ms, verdict_ms}); }
    long rss_delta_kib = 0;
};

// How long this process has run, from the kernel's start time of it (/proc/self/stat's
// starttime against /proc/uptime; clock ticks, so to 10 ms): the dynamic loading and
// static constructors before main() count too.
double process_age_ms() {
    std::ifstream stat("/proc/self/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    // Fields after the command's closing parenthesis; starttime is field 22, the 20th there.
    std::istringstream rest(text.substr(text.rfind(')') + 2));
    std::string field;
    for (int i = 3; i <= 22 && rest >> field; ++i) {
    }
    std::ifstream uptime("/proc/uptime");
    double up_s = 0;
    uptime >> up_s;
    const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
    return (up_s - std::stod(field) / ticks) * 1000.0;
}

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
        o.painted_age_ms = process_age_ms();
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

double peak_rss_mib();

// The value under which `share` of `v` lies (nearest rank).
double percentile(std::vector<double> v, double share) {
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<std::size_t>(std::ceil(share * static_cast<double>(v.size())));
    return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

// Issue 24's zoom and pan: 200 scripted steps on the timeline of a window that opened the
// file (in at the run's centre 100 times by 1.2, 50 pans by a tenth of the view, out 50
// times by 1.2 while panning on). Each step's frame is painted as the view paints it
// (asking for what it lacks); then, once that is read, painted again. The figures are
// over all 400 frames, with how often the summary tiles and the activity stretch a
// frame wanted were already there.
// Find on a run left in its file: Enter starts one pass over every lane of the file
// (ui/timeline/file_search.*), which ends early at 1,000,000 matches, and makes none when
// no name matches. A common name ends there; the prefill iterations' marker, a few
// thousand activities, makes the whole pass.
void find_in_file(ui::MainWindow& window) {
    auto* tab = window.timelineTab();
    if (!tab->view()->run().data->in_file) return;
    for (const QString& text : {QStringLiteral("AllReduce"), QStringLiteral("execute_context_8")}) {
        tab->searchBox()->setText(text);
        const auto start = Clock::now();
        emit tab->searchBox()->returnPressed();
        while (tab->queryBusy()) QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        const QString what = QStringLiteral("Find \"%1\": the pass over the file").arg(text);
        std::printf("%-52s %10.0f ms (%zu matches)\n", qPrintable(what), ms_since(start),
                    tab->fileSearch().count());
    }
}

void zoom_and_pan(const QString& path) {
    ui::MainWindow window;
    window.resize(1600, 900);
    window.show();
    QEventLoop loop;
    QObject::connect(&window, &ui::MainWindow::runsOpened, &loop, &QEventLoop::quit);
    window.openFiles({path});
    loop.exec();
    auto* view = window.timelineTab()->view();
    auto* tiles = view->summaryTiles();
    auto* stretch = view->activityWindow();
    double longest_wait = 0;  // for what a step asked for: the first stretch, at 1 B
    auto settle = [&] {
        const auto start = Clock::now();
        if (tiles != nullptr) tiles->waitForIdle();
        if (stretch != nullptr) stretch->waitForIdle();
        longest_wait = std::max(longest_wait, ms_since(start));
    };
    QImage image(view->size(), QImage::Format_ARGB32_Premultiplied);
    view->render(&image);
    settle();
    std::vector<double> frames;
    auto frame = [&] {
        const auto start = Clock::now();
        view->render(&image);
        frames.push_back(ms_since(start));
    };
    std::size_t most = 0;
    double narrowest = 1e300;
    for (int step = 0; step < 200; ++step) {
        const double w = view->plotWidth();
        if (step < 100) view->zoomAt(w / 2.0, 1.2);
        if (step >= 150) view->zoomAt(w / 2.0, 1.0 / 1.2);
        if (step >= 100) {
            const std::int64_t t0 = view->viewport().start_ns();
            const std::int64_t t1 = view->viewport().end_ns(view->plotWidth());
            view->showRange(t0 + (t1 - t0) / 10, t1 + (t1 - t0) / 10);
        }
        frame();
        settle();
        frame();
        if (stretch != nullptr) most = std::max(most, stretch->stats().activities);
        narrowest = std::min(narrowest, view->viewport().ns_per_px() * view->plotWidth());
    }
    auto rate = [](std::size_t hits, std::size_t misses) {
        return hits + misses > 0
                   ? 100.0 * static_cast<double>(hits) / static_cast<double>(hits + misses)
                   : 100.0;
    };
    std::printf("\nzoom and pan, 200 steps (400 frames), the narrowest view %.1f us wide\n",
                narrowest / 1000.0);
    std::printf("%-52s %10.2f ms\n", "frame, median", median(frames));
    std::printf("%-52s %10.2f ms\n", "frame, P95", percentile(frames, 0.95));
    std::printf("%-52s %10.2f ms\n", "frame, slowest", percentile(frames, 1.0));
    std::printf("%-52s %10.0f ms\n", "longest wait for the reads a step asked for", longest_wait);
    if (tiles != nullptr) {
        const auto t = tiles->stats();
        std::printf("%-52s %9.1f %% (%zu of %zu)\n", "summary tile cache hit rate",
                    rate(t.hits, t.misses), t.hits, t.hits + t.misses);
    }
    if (stretch != nullptr) {
        const auto a = stretch->stats();
        std::printf("%-52s %9.1f %% (%zu of %zu; %zu stretches read)\n",
                    "activity stretch hit rate", rate(a.hits, a.misses), a.hits, a.hits + a.misses,
                    a.reads);
        std::printf("%-52s %10zu\n", "most activities in a stretch", most);
    }
    find_in_file(window);
    std::printf("%-52s %10.0f MiB\n", "peak resident memory of the process", peak_rss_mib());
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
        // Counted from the stored totals: runs() walks and maps the whole file first,
        // which would put gigabytes in this process's peak before the first open.
        store::StoreReader reader(path.toStdString(),
                                  {.migrate = false, .check_whole_file = false, .map_file = false});
        for (const auto id : reader.run_ids())
            if (const auto totals = reader.activity_totals(id))
                activities += static_cast<std::size_t>(totals->activities());
    } else {
        const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
        path = QDir::temp().filePath(QStringLiteral("ui_open_bench.tokenscope"));
        activities = write_decode_run(path.toStdString(), n);
    }
    std::printf("run: %zu activities in %s\n", activities, qPrintable(path));
    std::vector<double> loaded, painted, summary, breakdown, verdict, analysed, bytes;
    double first_painted_since_start_ms = -1;
    for (int r = 0; r < reps; ++r) {
        const Open o = open_once(path);
        if (r == 0) first_painted_since_start_ms = o.painted_age_ms;
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
    std::printf("%-52s %10.0f ms\n", "first timeline painted, from process start",
                first_painted_since_start_ms);
    std::printf("%-52s %10.0f MiB\n", "peak resident memory of the process", peak_rss_mib());
    if (given) zoom_and_pan(path);
    // The whole run in memory, for the frame painted from its activities: only where
    // that fits beside the window's figures.
    if (given && activities <= 30'000'000) frame_costs(path);
    return 0;
}
