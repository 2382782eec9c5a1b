// Issue 24's store figures: what writing a run's timeline summaries costs (write rate,
// bytes per activity on disk) and what they buy at open (the timeline's first picture
// from the summaries, against reading the whole run), on two runs of N activities: the
// GUI benches' decode run (bench/decode_run.h, written whole with write_run) and
// make_large_run's serving run on 8 GPUs (streamed). Medians of R repetitions.
// Built in older trees too (before the summaries), where it measures writing and
// load_run only: bench/compare_open.sh's way of comparing one program's figures.
//
//   summary_bench [activities (default 10000000)] [repetitions (default 3)]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "decode_run.h"
#include "make_large_run.h"
#include "store/store_reader.h"
#include "store/store_writer.h"

#if __has_include("store/timeline_summary.h")
#define TOKENSCOPE_HAS_SUMMARIES 1
#endif

using namespace tokenscope;
using namespace tokenscope::bench;

namespace {

constexpr std::int64_t kPixels = 1600;  // a timeline's width: bins wanted across the run

void remove_file(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        std::filesystem::remove(path + suffix);
}

// Seconds to write the serving run, streamed as a capture or an import would.
double write_large(const std::string& path, std::size_t n) {
    remove_file(path);
    const auto t0 = Clock::now();
    store::StoreWriter writer(path);
    trace::RunInfo info;
    info.name = "large";
    info.source = trace::Source::Bench;
    auto run = writer.begin_run(info);
    LargeRunOptions opt;
    opt.activities = n;
    LargeRunGenerator(*run, opt).run();
    run->finish();
    return ms_since(t0) / 1000;
}

double write_decode(const std::string& path, const trace::RunData& run) {
    remove_file(path);
    const auto t0 = Clock::now();
    store::StoreWriter(path).write_run(run);
    return ms_since(t0) / 1000;
}

#ifdef TOKENSCOPE_HAS_SUMMARIES
// Opens the file and reads what the timeline's first picture needs: each lane's extent
// from the chunk directory, then its bins at the finest level with at most kPixels bins
// across it. Returns the bins read.
std::size_t open_from_summaries(const std::string& path) {
    store::StoreReader reader(path);
    const std::int64_t id = reader.run_ids().at(0);
    if (!reader.has_summaries(id)) return 0;
    std::size_t bins = 0;
    for (std::uint16_t lane = 0;; ++lane) {
        const auto bounds = reader.lane_bounds(id, lane);
        if (!bounds) break;
        const auto [t0, t1] = *bounds;
        const auto levels = reader.summary_levels(id, lane);
        auto level = levels.begin();
        while (std::next(level) != levels.end() && ((t1 - t0) >> level->bin_log2()) > kPixels)
            ++level;
        bins += reader.summary_bins(id, lane, level->level, t0, t1 + 1).size();
    }
    return bins;
}
#endif

struct Figures {
    std::vector<double> write_s, open_ms, load_ms;
    double bytes_per_activity = 0;
    std::size_t bins = 0;
};

void measure_open(const std::string& path, int reps, Figures& f) {
    for (int r = 0; r < reps; ++r) {
#ifdef TOKENSCOPE_HAS_SUMMARIES
        auto t0 = Clock::now();
        f.bins = open_from_summaries(path);
        f.open_ms.push_back(ms_since(t0));
#endif
        const auto t1 = Clock::now();
        store::StoreReader reader(path);
        const auto run = reader.load_run(reader.run_ids().at(0));
        f.load_ms.push_back(ms_since(t1));
    }
}

void print(const char* what, std::size_t n, const Figures& f) {
    std::printf("\n%s, %zu activities (medians of %zu)\n", what, n, f.write_s.size());
    std::printf("  %-44s %10.2f M/s\n", "written",
                static_cast<double>(n) / median(f.write_s) * 1e-6);
    std::printf("  %-44s %10.2f B\n", "bytes per activity on disk", f.bytes_per_activity);
    if (!f.open_ms.empty())
        std::printf("  %-44s %10.1f ms (%zu bins)\n", "opened, timeline's bins from summaries",
                    median(f.open_ms), f.bins);
    std::printf("  %-44s %10.1f ms\n", "opened, whole run read (load_run)", median(f.load_ms));
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
    const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    const std::string dir = (std::filesystem::temp_directory_path() / "summary_bench").string();
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/run.tokenscope";

    Figures decode, large;
    {
        const trace::RunData run = decode_run(n);
        for (int r = 0; r < reps; ++r) decode.write_s.push_back(write_decode(path, run));
        decode.bytes_per_activity = static_cast<double>(std::filesystem::file_size(path)) /
                                    static_cast<double>(run.activities.size());
        measure_open(path, reps, decode);
        print("decode run (bench/decode_run.h), write_run", run.activities.size(), decode);
    }
    for (int r = 0; r < reps; ++r) large.write_s.push_back(write_large(path, n));
    large.bytes_per_activity =
        static_cast<double>(std::filesystem::file_size(path)) / static_cast<double>(n);
    measure_open(path, reps, large);
    print("serving run on 8 GPUs (make_large_run.h), streamed", n, large);
    remove_file(path);
    std::filesystem::remove_all(dir);
    return 0;
}
