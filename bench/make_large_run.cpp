// Writes a serving run of any size (bench/make_large_run.h) as the only run of a fresh
// .tokenscope file, streaming through the store's writer, then attributes it once into
// the file as `import` does (analysis/attribution/stored_attribution.h), and prints what
// it planted, the write rate, the attribution time and the bytes on disk per activity.
//
//   make_large_run OUT ACTIVITIES [--gpus N] [--seed S] [--layers L]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "analysis/attribution/stored_attribution.h"
#include "make_large_run.h"
#include "store/store_error.h"
#include "store/store_writer.h"

namespace {

using namespace tokenscope;

int usage() {
    std::fprintf(stderr,
                 "usage: make_large_run OUT ACTIVITIES [--gpus N] [--seed S] [--layers L]\n"
                 "  ACTIVITIES: 1000 or more (suffixes k, M, G)\n");
    return 1;
}

// "10M" -> 10'000'000; 0 when it is not a count.
std::uint64_t parse_count(const char* text) {
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    double scale = 1;
    if (end != nullptr && *end != '\0') {
        if (std::strcmp(end, "k") == 0)
            scale = 1e3;
        else if (std::strcmp(end, "M") == 0)
            scale = 1e6;
        else if (std::strcmp(end, "G") == 0)
            scale = 1e9;
        else
            return 0;
    }
    return v > 0 ? static_cast<std::uint64_t>(v * scale) : 0;
}

long peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    bench::LargeRunOptions opt;
    const std::string out = argv[1];
    opt.activities = parse_count(argv[2]);
    if (opt.activities < 1000) return usage();
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const long long v = std::atoll(argv[i + 1]);
        if (flag == "--gpus" && v >= 1 && v <= 64)
            opt.gpus = static_cast<int>(v);
        else if (flag == "--seed" && v >= 0)
            opt.seed = static_cast<std::uint64_t>(v);
        else if (flag == "--layers" && v >= 1 && v <= 1000)
            opt.layers = static_cast<int>(v);
        else
            return usage();
    }
    if (argc % 2 == 0) return usage();
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        std::filesystem::remove(out + suffix);
    const auto t0 = std::chrono::steady_clock::now();
    bench::LargeRunTruth truth;
    double write_secs = 0;
    std::uintmax_t written_bytes = 0;
    try {
        std::int64_t id = 0;
        {
            // Closed before the file is measured: until then the last pages sit in its -wal.
            store::StoreWriter writer(out);
            trace::RunInfo info;
            info.name = "large serving run (" + std::to_string(opt.gpus) + " GPUs, seed " +
                        std::to_string(opt.seed) + ")";
            info.source = trace::Source::Bench;
            info.gpu = {"NVIDIA H100 80GB HBM3", 132, 3.35e12, 989.4e12, 5, 16, 18, 450e9};
            info.clock = trace::ClockDomain::Cupti;
            auto run = writer.begin_run(info);
            truth = bench::LargeRunGenerator(*run, opt).run();
            id = run->run_id();
            run->finish();
        }
        write_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        written_bytes = std::filesystem::file_size(out);
        analysis::attribute_stored_runs(out, {id});
    } catch (const store::StoreError& e) {
        std::fprintf(stderr, "make_large_run: %s\n", e.what());
        return 1;
    }
    const double attributed_secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - write_secs;
    const auto bytes = std::filesystem::file_size(out);
    const double n = static_cast<double>(truth.activities);
    std::printf("%s: %llu activities, %lld iterations, %d GPUs\n", out.c_str(),
                static_cast<unsigned long long>(truth.activities),
                static_cast<long long>(truth.iterations), opt.gpus);
    std::printf("planted: GPU %d's GEMMs %.2fx; iterations %lld..%lld (%.3f..%.3f s) %.2fx\n",
                truth.straggler_gpu, truth.straggler_factor,
                static_cast<long long>(truth.slow_first), static_cast<long long>(truth.slow_last),
                static_cast<double>(truth.slow_begin_ns) * 1e-9,
                static_cast<double>(truth.slow_end_ns) * 1e-9, truth.slow_factor);
    std::printf("%-34s %12.2f s\n", "written in", write_secs);
    std::printf("%-34s %12.2f M/s\n", "activities per second", n / write_secs * 1e-6);
    std::printf("%-34s %12.2f s\n", "attributed in", attributed_secs);
    std::printf("%-34s %12.1f MB\n", "file", static_cast<double>(bytes) * 1e-6);
    std::printf("%-34s %12.1f kB\n", "of it the kept attribution",
                (static_cast<double>(bytes) - static_cast<double>(written_bytes)) * 1e-3);
    std::printf("%-34s %12.2f B\n", "bytes per activity on disk", static_cast<double>(bytes) / n);
    std::printf("%-34s %12ld MiB\n", "peak resident memory", peak_rss_mib());
    return 0;
}
