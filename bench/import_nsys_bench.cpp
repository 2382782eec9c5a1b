// Nsight Systems import speed: rows read per second, median of repeats, on the
// real fixture and on a synthetic export with millions of kernel rows.
// Target (issue 5): >= 1,000,000 rows/s.

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "import/nsys/nsys_importer.h"

namespace {

using Clock = std::chrono::steady_clock;

void exec(sqlite3* db, const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        std::fprintf(stderr, "sql error: %s\n", err ? err : "?");
        std::exit(2);
    }
}

// An nsys-like export: `kernels` kernel rows on 8 streams of 2 GPUs, each
// launched by a runtime call, plus `kernels / 10` memcpys.
void synthesise(const std::string& path, std::int64_t kernels) {
    std::filesystem::remove(path);
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    exec(db,
         "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;"
         "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
         "INSERT INTO StringIds VALUES (1,'cudaLaunchKernel_v7000'),(2,'gemm'),(3,'softmax'),"
         "(4,'cudaMemcpyAsync_v3020');"
         "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER, eventClass "
         "INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER);"
         "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER,"
         " streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,"
         " shortName INTEGER);"
         "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER, end INTEGER, deviceId INTEGER,"
         " streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER,"
         " copyKind INTEGER);");
    sqlite3_stmt *rt = nullptr, *k = nullptr, *m = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES(?,?,0,?,?,?)", -1, &rt,
                       nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(?,?,?,?,?,?,?,?)", -1, &k,
                       nullptr);
    sqlite3_prepare_v2(db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES(?,?,?,?,?,?,?,1)", -1, &m,
                       nullptr);
    const std::int64_t pid = std::int64_t{1234} << 24, tid = pid | 1235;
    for (std::int64_t i = 0; i < kernels; ++i) {
        std::int64_t t = i * 1000, corr = 2 * i + 1;
        sqlite3_bind_int64(rt, 1, t);
        sqlite3_bind_int64(rt, 2, t + 300);
        sqlite3_bind_int64(rt, 3, tid);
        sqlite3_bind_int64(rt, 4, corr);
        sqlite3_bind_int64(rt, 5, 1);
        sqlite3_step(rt);
        sqlite3_reset(rt);
        sqlite3_bind_int64(k, 1, t + 400);
        sqlite3_bind_int64(k, 2, t + 900);
        sqlite3_bind_int64(k, 3, i % 2);
        sqlite3_bind_int64(k, 4, 7 + i % 8);
        sqlite3_bind_int64(k, 5, corr);
        sqlite3_bind_int64(k, 6, pid);
        sqlite3_bind_int64(k, 7, 2 + i % 2);
        sqlite3_bind_int64(k, 8, 2 + i % 2);
        sqlite3_step(k);
        sqlite3_reset(k);
        if (i % 10 == 0) {
            sqlite3_bind_int64(m, 1, t + 910);
            sqlite3_bind_int64(m, 2, t + 990);
            sqlite3_bind_int64(m, 3, i % 2);
            sqlite3_bind_int64(m, 4, 7);
            sqlite3_bind_int64(m, 5, corr + 1);
            sqlite3_bind_int64(m, 6, pid);
            sqlite3_bind_int64(m, 7, 65536);
            sqlite3_step(m);
            sqlite3_reset(m);
        }
    }
    sqlite3_finalize(rt);
    sqlite3_finalize(k);
    sqlite3_finalize(m);
    exec(db, "COMMIT;");
    sqlite3_close(db);
}

void measure(const char* label, const std::string& path, int repeats) {
    std::vector<double> seconds;
    std::int64_t rows = 0;
    std::size_t activities = 0;
    for (int r = 0; r < repeats; ++r) {
        auto t0 = Clock::now();
        auto run = tokenscope::import::NsysImporter().import(
            path, {}, [&rows](std::int64_t done, std::int64_t) {
                rows = done;
                return true;
            });
        seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        activities = run.activities.size();
    }
    std::sort(seconds.begin(), seconds.end());
    double median = seconds[seconds.size() / 2];
    std::printf(
        "%-28s rows %10lld  activities %10zu  median %8.3f s  (min %.3f, max %.3f)  "
        "%12.0f rows/s\n",
        label, static_cast<long long>(rows), activities, median, seconds.front(), seconds.back(),
        static_cast<double>(rows) / median);
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t kernels = argc > 1 ? std::atoll(argv[1]) : 2'000'000;
    std::string fixture = TOKENSCOPE_BENCH_FIXTURES "/nsys/pipit_a100x4_cloverleaf.sqlite";
    if (std::filesystem::exists(fixture)) measure("fixture (cloverleaf)", fixture, 21);
    std::string synth = (std::filesystem::temp_directory_path() /
                         ("tokenscope_nsys_bench_" + std::to_string(::getpid()) + ".sqlite"))
                            .string();
    auto t0 = Clock::now();
    synthesise(synth, kernels);
    std::printf("synthesised %lld kernels in %.1f s\n", static_cast<long long>(kernels),
                std::chrono::duration<double>(Clock::now() - t0).count());
    measure("synthetic", synth, 3);
    std::filesystem::remove(synth);
    std::printf("target: >= 1000000 rows/s\n");
    return 0;
}
