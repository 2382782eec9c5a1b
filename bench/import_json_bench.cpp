// Issue 25's in-process figures: import at the speed of decompression.
// (1) Inflating the shared gzip fixtures: zlib streaming (what a file larger than
//     the memory budget gets) against libdeflate whole-buffer (what one that fits
//     gets), MB/s of decompressed bytes through import::FileSource.
// Medians of 7 of this thread's CPU time (the machine is shared: wall time measures
// the queue too). Usage: import_json_bench [FIXTURES_DIR].
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "import/file_source.h"

namespace {

namespace fs = std::filesystem;
using tokenscope::import::FileSource;

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double median_cpu_seconds(int repeats, const std::function<void()>& fn) {
    std::vector<double> t;
    for (int i = 0; i < repeats; ++i) {
        const double start = thread_cpu_seconds();
        fn();
        t.push_back(thread_cpu_seconds() - start);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// Reads the whole file through FileSource; `streamed` forces zlib by a memory
// budget too small to inflate anything whole.
std::size_t inflate(const std::string& path, bool streamed) {
    if (streamed) ::setenv("TOKENSCOPE_MEMORY_LIMIT", "1K", 1);
    FileSource source(path);
    if (streamed) ::unsetenv("TOKENSCOPE_MEMORY_LIMIT");
    std::size_t n = 0;
    for (auto chunk = source.next_chunk(); !chunk.empty(); chunk = source.next_chunk())
        n += chunk.size();
    if (source.inflated_whole() == streamed) std::fprintf(stderr, "unexpected reader\n");
    return n;
}

void decompression(const std::string& fixtures) {
    std::printf("(1) gzip inflate through FileSource, MB/s of JSON (median of 7, thread CPU)\n");
    std::printf("%-58s %8s %8s %10s %7s\n", "file", "MB", "zlib", "libdeflate", "ratio");
    std::vector<std::string> files;
    for (const char* dir : {"kineto", "engines"})
        for (const auto& entry : fs::directory_iterator(fixtures + "/" + dir))
            if (entry.path().extension() == ".gz") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    for (const std::string& path : files) {
        const double mb = static_cast<double>(inflate(path, false)) / 1e6;
        const double zlib = median_cpu_seconds(7, [&] { inflate(path, true); });
        const double whole = median_cpu_seconds(7, [&] { inflate(path, false); });
        std::printf("%-58s %8.1f %8.0f %10.0f %6.2fx\n", fs::path(path).filename().string().c_str(),
                    mb, mb / zlib, mb / whole, zlib / whole);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::string fixtures = argc > 1 ? argv[1] : TOKENSCOPE_BENCH_FIXTURES;
    decompression(fixtures);
    return 0;
}
