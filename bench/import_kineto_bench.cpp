// Kineto import speed (MB/s of unpacked JSON, median of 5) on the V100 fixture
// and on a synthesised ~200 MB Kineto-like trace, and peak memory relative to
// the unpacked size. Targets: >= 100 MB/s and peak < 4x the unpacked size.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "import/file_source.h"
#include "import/kineto/kineto_importer.h"

namespace {

using tokenscope::import::KinetoImporter;

std::int64_t status_kb(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) return std::atoll(line.c_str() + std::string(field).size());
    return 0;
}

// Resets VmHWM to the current RSS (Linux >= 4.0), so each import's peak stands alone.
void reset_peak() {
    std::ofstream("/proc/self/clear_refs") << "5";
}

// Process CPU time: on a busy shared machine the wall clock measures the queue.
double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::int64_t unpacked_size(const std::string& path) {
    tokenscope::import::FileSource source(path);
    std::int64_t n = 0;
    for (auto chunk = source.next_chunk(); !chunk.empty(); chunk = source.next_chunk())
        n += static_cast<std::int64_t>(chunk.size());
    return n;
}

void measure(const char* label, const std::string& path) {
    const double mb = static_cast<double>(unpacked_size(path)) / 1e6;
    std::vector<double> seconds, cpu;
    std::int64_t peak_kb = 0;
    std::size_t activities = 0;
    for (int i = 0; i < 5; ++i) {
        reset_peak();
        std::int64_t before_kb = status_kb("VmRSS:");
        auto t0 = std::chrono::steady_clock::now();
        double c0 = cpu_seconds();
        auto run = KinetoImporter().import(path, {}, {});
        cpu.push_back(cpu_seconds() - c0);
        auto t1 = std::chrono::steady_clock::now();
        peak_kb = std::max(peak_kb, status_kb("VmHWM:") - before_kb);
        activities = run.activities.size();
        seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
    }
    std::sort(seconds.begin(), seconds.end());
    std::sort(cpu.begin(), cpu.end());
    const double median = seconds[2];
    const double peak_mb = static_cast<double>(peak_kb) * 1024 / 1e6;
    std::printf("%-22s unpacked %6.1f MB, %zu activities\n", label, mb, activities);
    std::printf(
        "    wall median %8.1f ms = %7.1f MB/s; CPU median %8.1f ms = %7.1f MB/s "
        "(target >= 100 MB/s)\n",
        median * 1e3, mb / median, cpu[2] * 1e3, mb / cpu[2]);
    std::printf("    peak memory +%.1f MB = %.2fx unpacked (target < 4x)\n", peak_mb, peak_mb / mb);
}

// A Kineto-shaped trace: per launch a cpu_op, a runtime call, an ac2g flow
// pair and a kernel (every 8th launch a memcpy), with Kineto's real arg sets.
std::string synthesise(std::int64_t target_bytes) {
    std::string path =
        (std::filesystem::temp_directory_path() / "tokenscope_kineto_bench.json").string();
    std::ofstream out(path, std::ios::binary);
    std::mt19937_64 rng(42);
    out << "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA "
           "H100 80GB HBM3\", \"totalGlobalMem\": 85045231616, \"numSms\": 132}],\n  "
           "\"traceEvents\": [\n";
    std::int64_t written = 0;
    double ts = 1712195495500000.0;
    char buf[2048];
    for (std::int64_t i = 0; written < target_bytes; ++i) {
        double cpu_dur = 5.0 + static_cast<double>(rng() % 50000) / 1000.0;
        double k_dur = 1.0 + static_cast<double>(rng() % 900000) / 1000.0;
        long corr = 100000 + i;
        int n = std::snprintf(
            buf, sizeof buf,
            "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::linear\", \"pid\": 1102, "
            "\"tid\": 1102, \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"External id\": %ld, "
            "\"Sequence number\": %ld, \"Fwd thread id\": 0, \"Ev Idx\": %ld}},\n"
            "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": "
            "1102, \"tid\": 1102, \"ts\": %.3f, \"dur\": 4.125, \"args\": {\"External id\": %ld, "
            "\"cbid\": 211, \"correlation\": %ld}},\n"
            "  {\"ph\": \"s\", \"id\": %ld, \"pid\": 1102, \"tid\": 1102, \"ts\": %.3f, \"cat\": "
            "\"ac2g\", \"name\": \"ac2g\"},\n"
            "  {\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": 0, \"tid\": 7, \"ts\": "
            "%.3f, \"dur\": %.3f, \"args\": {\"External id\": %ld, \"queued\": 0, \"device\": 0, "
            "\"context\": 1, \"stream\": 7, \"correlation\": %ld, \"registers per thread\": 64, "
            "\"shared memory\": 16384, \"blocks per SM\": 1.500000, \"warps per SM\": 6.000000, "
            "\"grid\": [132, 4, 1], \"block\": [128, 1, 1], \"est. achieved occupancy %%\": 25, "
            "\"bytes\": 1048576}},\n"
            "  {\"ph\": \"f\", \"id\": %ld, \"pid\": 0, \"tid\": 7, \"ts\": %.3f, \"cat\": "
            "\"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"},\n",
            ts, cpu_dur, corr, i, i, ts + 1.0, corr, corr, corr, ts + 1.0,
            i % 8 == 0 ? "gpu_memcpy" : "kernel",
            i % 8 == 0 ? "Memcpy HtoD (Pageable -> Device)"
                       : "void "
                         "cutlass::Kernel<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_"
                         "tn_align8>(Params)",
            ts + 10.0, k_dur, corr, corr, corr, ts + 10.0);
        out.write(buf, n);
        written += n;
        ts += cpu_dur + 2.0;
    }
    out << "  {\"ph\": \"i\", \"name\": \"Record Window End\", \"s\": \"g\", \"pid\": \"\", "
           "\"tid\": \"\", \"ts\": "
        << std::to_string(ts)
        << "}\n  ],\n  \"traceName\": \"synthetic\",\n  \"displayTimeUnit\": \"ms\"\n}\n";
    return path;
}

}  // namespace

int main(int argc, char** argv) {
    std::string fixtures = argc > 1 ? argv[1] : TOKENSCOPE_BENCH_FIXTURES;
    std::string v100 = fixtures + "/kineto/hta_v100_ns_resolution_rank0.json.gz";
    measure("v100 fixture (gzip)", v100);
    // The same trace unpacked, to separate parsing from inflating.
    std::string plain =
        (std::filesystem::temp_directory_path() / "tokenscope_v100_plain.json").string();
    {
        tokenscope::import::FileSource source(v100);
        std::ofstream out(plain, std::ios::binary);
        for (auto chunk = source.next_chunk(); !chunk.empty(); chunk = source.next_chunk())
            out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    }
    measure("v100 fixture (plain)", plain);
    std::string synthetic = synthesise(200'000'000);
    measure("synthetic 200 MB", synthetic);
    std::filesystem::remove(plain);
    std::filesystem::remove(synthetic);
    return 0;
}
