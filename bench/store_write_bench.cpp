// Write and read speed and disk size of the .tokenscope activity store, against
// the sqlite3 shell importing the same rows as CSV into a plain table.
//
//   store_write_bench [N = 2000000]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "store/store_reader.h"
#include "store/store_writer.h"

namespace {

using namespace tokenscope;
using Clock = std::chrono::steady_clock;
constexpr int kRepeats = 5;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct Workload {
    std::vector<trace::Lane> lanes;
    std::vector<std::string> names;
    std::vector<trace::Activity> activities;
};

// A decode loop as CUPTI reports it: one host thread launching kernels (API call,
// then the kernel on a stream, back to back), a second stream, copy engines
// moving KV-cache and logits, and a thread synchronising.
Workload make_workload(std::size_t n) {
    Workload w;
    w.lanes = {{trace::LaneKind::CpuThread, -1, 100, 101, "main"},
               {trace::LaneKind::GpuStream, 0, 100, 7, "stream 7"},
               {trace::LaneKind::GpuStream, 0, 100, 13, "stream 13"},
               {trace::LaneKind::CopyEngine, 0, 100, 1, "copy H2D"},
               {trace::LaneKind::CopyEngine, 0, 100, 2, "copy D2H"},
               {trace::LaneKind::CpuThread, -1, 100, 102, "sampler"}};
    w.names.push_back("cudaLaunchKernel");
    w.names.push_back("cudaMemcpyAsync");
    w.names.push_back("cudaStreamSynchronize");
    for (int i = 0; i < 40; ++i) w.names.push_back("kernel_" + std::to_string(i));
    std::mt19937_64 rng(12345);
    w.activities.reserve(n);
    std::int64_t host = 123'456'789'000'000;  // CLOCK_MONOTONIC_RAW-like
    std::int64_t gpu = host;
    std::uint32_t corr = 1000;
    auto add = [&](trace::Activity a) {
        if (w.activities.size() < n) w.activities.push_back(a);
    };
    while (w.activities.size() < n) {
        ++corr;
        std::int64_t api = 2500 + static_cast<std::int64_t>(rng() % 4000);
        add({host, host + api, 0, 0, 1, corr, 0, trace::ActivityKind::Api, trace::CopyKind::None});
        gpu = std::max(gpu, host + api) + static_cast<std::int64_t>(rng() % 500);
        std::int64_t dur = 3000 + static_cast<std::int64_t>(rng() % 60'000);
        bool second = corr % 4 == 0;
        add({gpu, gpu + dur, (rng() % (64ULL << 20)), static_cast<float>(rng() % (1ULL << 40)),
             static_cast<std::uint32_t>(4 + rng() % 40), corr, std::uint16_t(second ? 2 : 1),
             trace::ActivityKind::Kernel, trace::CopyKind::None});
        if (!second) gpu += dur;
        if (corr % 10 == 0) {
            bool h2d = corr % 20 == 0;
            add({gpu, gpu + 8000, 1ULL << (12 + rng() % 16), 0, 2, corr, std::uint16_t(h2d ? 3 : 4),
                 trace::ActivityKind::Memcpy, h2d ? trace::CopyKind::H2D : trace::CopyKind::D2H});
        }
        if (corr % 32 == 0)
            add({host, gpu, 0, 0, 3, 0, 5, trace::ActivityKind::Sync, trace::CopyKind::None});
        host += api + static_cast<std::int64_t>(rng() % 1500);
    }
    return w;
}

void remove_store(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        std::filesystem::remove(path + suffix);
}

// Seconds to write the workload as one run, including finish and close.
std::int64_t write_once(const std::string& path, const Workload& w, double& secs) {
    remove_store(path);
    auto t0 = Clock::now();
    std::int64_t id = 0;
    {
        store::StoreWriter writer(path);
        trace::RunInfo info;
        info.name = "bench";
        info.source = trace::Source::Bench;
        auto run = writer.begin_run(info);
        for (const auto& lane : w.lanes) run->add_lane(lane);
        for (const auto& name : w.names) run->intern(name);
        for (const auto& a : w.activities) run->add_activity(a);
        run->finish();
        id = run->run_id();
    }
    secs = seconds_since(t0);
    return id;
}

// Returns seconds, or a negative value when the sqlite3 shell is unavailable.
double sqlite3_import(const std::string& dir, const Workload& w) {
    std::string csv = dir + "/activities.csv";
    {
        std::ofstream out(csv);
        out << "lane,start_ns,end_ns,name,correlation,kind,copy,device,bytes,flops\n";
        for (const auto& a : w.activities)
            out << a.lane << ',' << a.start_ns << ',' << a.end_ns << ',' << a.name << ','
                << a.correlation << ',' << int(a.kind) << ',' << int(a.copy) << ','
                << w.lanes[a.lane].device << ',' << a.bytes << ','
                << static_cast<std::uint64_t>(a.flops) << '\n';
    }
    std::string db = dir + "/csv.sqlite";
    remove_store(db);
    std::string cmd = "sqlite3 '" + db + "' '.mode csv' '.import " + csv + " activity'";
    auto t0 = Clock::now();
    int rc = std::system(cmd.c_str());
    double secs = seconds_since(t0);
    return rc == 0 ? secs : -1.0;
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2'000'000;
    if (n == 0) {
        std::fprintf(stderr, "usage: store_write_bench [activities > 0]\n");
        return 1;
    }
    std::string dir = (std::filesystem::temp_directory_path() / "tokenscope-store-bench").string();
    std::filesystem::create_directories(dir);
    std::string path = dir + "/bench.tokenscope";
    Workload w = make_workload(n);

    std::vector<double> write_secs;
    std::int64_t run_id = 0;
    for (int i = 0; i < kRepeats; ++i) {
        double s = 0;
        run_id = write_once(path, w, s);
        write_secs.push_back(s);
    }
    double write_rate = static_cast<double>(n) / median(write_secs);
    double bytes_per =
        static_cast<double>(std::filesystem::file_size(path)) / static_cast<double>(n);

    std::vector<double> read_secs;
    for (int i = 0; i < kRepeats; ++i) {
        store::StoreReader reader(path);
        auto t0 = Clock::now();
        trace::RunData run = reader.load_run(run_id);
        read_secs.push_back(seconds_since(t0));
        if (run.activities.size() != n) {
            std::fprintf(stderr, "load_run returned %zu activities, expected %zu\n",
                         run.activities.size(), n);
            return 2;
        }
    }
    // The first load also pays the kernel's first touch of the result's memory.
    double first_read = read_secs.front();
    double read_rate = static_cast<double>(n) / median(read_secs);
    double import_secs = sqlite3_import(dir, w);

    std::printf("store_write_bench: %zu activities on %zu lanes, median of %d runs\n", n,
                w.lanes.size(), kRepeats);
    std::printf("%-34s %16s %12s\n", "measure", "value", "target");
    std::printf("%-34s %16.0f %12s\n", "RunWriter activities/s", write_rate, ">= 1500000");
    std::printf("%-34s %16.2f %12s\n", "bytes per activity on disk", bytes_per, "<= 32");
    std::printf("%-34s %16.0f %12s\n", "load_run activities/s", read_rate, "");
    std::printf("%-34s %16.3f %12s\n", "load_run s per 10M (extrapolated)", 1e7 / read_rate, "< 1");
    std::printf("%-34s %16.0f %12s\n", "load_run activities/s, first call",
                static_cast<double>(n) / first_read, "");
    if (import_secs > 0) {
        double import_rate = static_cast<double>(n) / import_secs;
        std::printf("%-34s %16.0f %12s\n", "sqlite3 .import CSV rows/s", import_rate, "");
        std::printf("%-34s %16.2f %12s\n", "our rate / sqlite3 .import rate",
                    write_rate / import_rate, "");
    } else {
        std::printf("%-34s %16s\n", "sqlite3 .import CSV rows/s", "sqlite3 shell failed");
    }
    remove_store(path);
    std::filesystem::remove_all(dir);
    return 0;
}
