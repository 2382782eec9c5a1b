// Issue 25's in-process figures: import at the speed of decompression.
// (1) Inflating the shared gzip fixtures: zlib streaming (what a file larger than
//     the memory budget gets) against libdeflate whole-buffer (what one that fits
//     gets), MB/s of decompressed bytes through import::FileSource.
// (2) Kineto import (KinetoImporter, the JSON read and the run built) of the shared
//     traces, read whole (parsed in windows, and as one document) and in slices, MB/s
//     of JSON beside the inflate alone.
// (3) JSON parse speed of a 50 MB Prometheus query_range answer
//     (fleet::parse_query_range; target >= 500 MB/s).
// (4) The serving and client results (the fixtures, and larger files in the tools'
//     layouts, result_generators.h): the JSON read alone, by nlohmann (the reader
//     before) and json::Tree (the reader now), and the whole import (MB/s of JSON).
// Medians of 7 of this thread's CPU time (the machine is shared: wall time measures
// the queue too). Usage: import_json_bench [FIXTURES_DIR]. Whole-process figures
// (tokenscope-cli info against gzip -dc) come from farm-bench, beside this.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "bench_stats.h"
#include "fleet/query_range_parser.h"
#include "import/client/client_importer.h"
#include "import/file_source.h"
#include "import/kineto/kineto_importer.h"
#include "import/serving/serving_importer.h"
#include "json/reader.h"
#include "json/tree.h"
#include "result_generators.h"

namespace {

using tokenscope::bench::median_cpu_seconds;

namespace fs = std::filesystem;
using tokenscope::import::FileSource;

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

void kineto_import(const std::string& fixtures) {
    std::printf("\n(2) Kineto import, MB/s of JSON (median of 7, thread CPU)\n");
    std::printf("%-58s %8s %8s %8s %8s %8s\n", "file", "MB", "inflate", "windows", "one doc",
                "slices");
    for (const char* name :
         {"kineto/hta_v100_ns_resolution_rank0.json.gz",
          "engines/hf_transformers_qwen1.5_0.5b_h100_forward_profilerstep.json.gz",
          "engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz"}) {
        const std::string path = fixtures + "/" + name;
        if (!fs::exists(path)) continue;
        const double mb = static_cast<double>(inflate(path, false)) / 1e6;
        const double inflated = median_cpu_seconds(7, [&] { inflate(path, false); });
        // Thread CPU counts this thread only: the inflate stays on it (libdeflate), as
        // it would not on a second thread alongside the windows.
        tokenscope::import::ImportOptions windowed;
        windowed.inflate_alongside = false;
        const double windows = median_cpu_seconds(
            7, [&] { (void)tokenscope::import::KinetoImporter().import(path, windowed, {}); });
        tokenscope::import::ImportOptions one_doc = windowed;  // a window larger than any trace
        one_doc.window_bytes = std::size_t{1} << 40;
        const double whole = median_cpu_seconds(
            7, [&] { (void)tokenscope::import::KinetoImporter().import(path, one_doc, {}); });
        tokenscope::import::ImportOptions sliced;
        sliced.slice_bytes = std::size_t{1} << 20;
        const double slices = median_cpu_seconds(
            7, [&] { (void)tokenscope::import::KinetoImporter().import(path, sliced, {}); });
        std::printf("%-58s %8.1f %8.0f %8.0f %8.0f %8.0f\n",
                    fs::path(path).filename().string().c_str(), mb, mb / inflated, mb / windows,
                    mb / whole, mb / slices);
    }
}

// A Prometheus-shaped answer: 200 rows x 17 buckets, points until ~50 MB.
std::string prometheus_answer() {
    static const char* const kLe[] = {"0.001", "0.005", "0.01", "0.02", "0.04", "0.06",
                                      "0.08",  "0.1",   "0.25", "0.5",  "0.75", "1",
                                      "2.5",   "5",     "7.5",  "10",   "+Inf"};
    std::string out = R"({"status":"success","data":{"resultType":"matrix","result":[)";
    char buf[128];
    const std::size_t series = 200 * 17, points = 50'000'000 / series / 22;
    for (std::size_t s = 0; s < series; ++s) {
        std::snprintf(buf, sizeof buf,
                      R"(%s{"metric":{"le":"%s","model_name":"model-%zu"},"values":[)",
                      s ? "," : "", kLe[s % 17], s / 17);
        out += buf;
        for (std::size_t p = 0; p < points; ++p) {
            std::snprintf(buf, sizeof buf, R"(%s[%zu,"%.6g"])", p ? "," : "", 1700000000 + p * 15,
                          static_cast<double>((s * 7919 + p * 104729) % 100000) / 7.0);
            out += buf;
        }
        out += "]}";
    }
    return out + "]}}";
}

// Through a copy (a saved answer, a body the caller keeps) and in place (the client's
// path when it keeps no copy): each in-place run gets its own copy, made untimed.
void prometheus() {
    const std::string body = prometheus_answer();
    const double mb = static_cast<double>(body.size()) / 1e6;
    const double copy =
        median_cpu_seconds(7, [&] { (void)tokenscope::fleet::parse_query_range(body); });
    // Each with room past its end, as the client's body has (grown by curl's appends):
    // an exact copy would make the parser reallocate it to pad it.
    std::vector<std::string> bodies(8);
    for (std::string& b : bodies) {
        b.reserve(body.size() + tokenscope::json::kPadding);
        b = body;
    }
    std::size_t next = 0;
    const double in_place = median_cpu_seconds(
        7, [&] { (void)tokenscope::fleet::parse_query_range_in_place(bodies[next++]); });
    std::printf(
        "\n(3) Prometheus query_range answer, %.1f MB: %.0f MB/s through a copy, %.0f MB/s in "
        "place (target >= 500)\n",
        mb, mb / copy, mb / in_place);
}

// The text read as the importers read it, whole or (JSONL) line by line, into a
// json::Tree (the reader now) or an nlohmann::json (the reader before issue 25).
void parse_tree(const std::string& text, bool lines) {
    static tokenscope::json::Tree tree;
    const tokenscope::json::Tree::Options python{.python_non_finite = true};
    if (!lines) {
        (void)tree.parse_copy(text, python);
        return;
    }
    for (std::size_t from = 0, nl; from < text.size(); from = nl + 1) {
        nl = std::min(text.find('\n', from), text.size());
        if (nl > from)
            (void)tree.parse_copy(std::string_view(text).substr(from, nl - from), python);
    }
}

void parse_nlohmann(const std::string& text, bool lines) {
    if (!lines) {
        const nlohmann::json doc = nlohmann::json::parse(text);
        return;
    }
    for (std::size_t from = 0, nl; from < text.size(); from = nl + 1) {
        nl = std::min(text.find('\n', from), text.size());
        if (nl > from) {
            const nlohmann::json doc =
                nlohmann::json::parse(std::string_view(text).substr(from, nl - from));
        }
    }
}

// Synthetic results at a size where fixed costs fade (result_generators.h), in a
// temporary folder; the shared fixtures as they are.
std::vector<std::string> result_files(const std::string& fixtures, const fs::path& dir) {
    using namespace tokenscope::bench;
    std::vector<std::string> files;
    for (const char* name : {"clients/vllm_bench_llama3.3_70b_a100x8_tp8_qps4.json",
                             "clients/llmperf_individual_together_llama2_70b.json"})
        if (fs::exists(fixtures + "/" + name)) files.push_back(fixtures + "/" + name);
    fs::create_directories(dir);
    const std::pair<const char*, std::string> made[] = {
        {"sglang_bench.jsonl", sglang_jsonl(3, 2000, 128)},
        {"profile_export.jsonl", aiperf_jsonl(20000, 64)},
        {"benchmarks.json", guidellm_report(50000)},
        {"genai_perf/profile_export.json", genai_perf_export(1000, 64)},
    };
    for (const auto& [name, text] : made) {
        const fs::path path = dir / name;
        fs::create_directories(path.parent_path());
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (f == nullptr) continue;
        std::fwrite(text.data(), 1, text.size(), f);
        std::fclose(f);
        files.push_back(path.string());
    }
    return files;
}

void results(const std::string& fixtures) {
    std::printf(
        "\n(4) serving and client results, MB/s of JSON (median of 7, thread CPU): the\n"
        "    JSON read alone by nlohmann (before) and json::Tree (now), then the whole "
        "import\n");
    std::printf("%-52s %7s %9s %10s %9s\n", "file", "MB", "nlohmann", "json::Tree", "import");
    const fs::path dir =
        fs::temp_directory_path() / ("import_json_bench-" + std::to_string(::getpid()));
    for (const std::string& path : result_files(fixtures, dir)) {
        const std::string text = FileSource(path).read_all();
        const double mb = static_cast<double>(text.size()) / 1e6;
        const bool lines = path.ends_with(".jsonl");
        const bool serving = path.find("vllm_bench") != std::string::npos ||
                             path.find("sglang") != std::string::npos;
        const double old_reader = median_cpu_seconds(7, [&] { parse_nlohmann(text, lines); });
        const double tree = median_cpu_seconds(7, [&] { parse_tree(text, lines); });
        const double imported = median_cpu_seconds(7, [&] {
            if (serving)
                (void)tokenscope::import::ServingImporter().import_all(path, {}, {});
            else
                (void)tokenscope::import::ClientImporter().import_all(path, {}, {});
        });
        std::string name = fs::path(path).filename().string();
        if (name == "profile_export.json") name = "genai_perf/" + name;
        std::printf("%-52s %7.2f %9.0f %10.0f %9.0f\n", name.c_str(), mb, mb / old_reader,
                    mb / tree, mb / imported);
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    std::printf("    target: >= 500 MB/s\n");
}

}  // namespace

int main(int argc, char** argv) {
    const std::string fixtures = argc > 1 ? argv[1] : TOKENSCOPE_BENCH_FIXTURES;
    decompression(fixtures);
    kineto_import(fixtures);
    prometheus();
    results(fixtures);
    return 0;
}
