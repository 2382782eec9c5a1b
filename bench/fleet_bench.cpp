// Fleet figures of issue 11: (1) parsing a 50 MB query_range answer (target >= 100
// MB/s), beside nlohmann_json's DOM and SAX parsers on the same text; (2) a 24 h x 1 h
// matrix over 200 label values fetched from a local Prometheus and computed (target
// <= 2 s), the server backfilled with promtool as in tests/fleet. Needs prometheus,
// promtool and openssl in /usr/bin for (2). Usage: fleet_bench [rows]. Medians of 5.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "fleet/fleet_source.h"
#include "fleet/query_range_parser.h"
#include "fleet_histograms.h"
#include "prometheus_process.h"

using namespace tokenscope;
using Clock = std::chrono::steady_clock;

namespace {

using tokenscope::bench::median_cpu_seconds;

double median_seconds(int repeats, const std::function<void()>& fn) {
    std::vector<double> t;
    for (int i = 0; i < repeats; ++i) {
        const auto start = Clock::now();
        fn();
        t.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// An answer shaped like Prometheus': 200 rows x 17 buckets, points until ~50 MB.
std::string synthetic_answer(std::size_t target_bytes) {
    const std::size_t series = 200 * 17;
    const std::size_t points = target_bytes / series / 22;
    std::string out = R"({"status":"success","data":{"resultType":"matrix","result":[)";
    char buf[96];
    for (std::size_t s = 0; s < series; ++s) {
        std::snprintf(buf, sizeof buf,
                      R"(%s{"metric":{"le":"%s","model_name":"model-%zu"},"values":[)",
                      s ? "," : "", fleet_test::le_text(s % 17).c_str(), s / 17);
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

struct CountingSax : nlohmann::json_sax<nlohmann::json> {
    std::size_t n = 0;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return ++n, true; }
    bool number_unsigned(number_unsigned_t) override { return ++n, true; }
    bool number_float(number_float_t, const string_t&) override { return ++n, true; }
    bool string(string_t&) override { return ++n, true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false;
    }
};

void parse_figures() {
    const std::string body = synthetic_answer(50'000'000);
    const double mb = static_cast<double>(body.size()) / 1e6;
    std::size_t points = 0;
    const double ours = median_seconds(5, [&] {
        const auto r = fleet::parse_query_range(body);
        points = 0;
        for (const auto& s : r.series) points += s.points.size();
    });
    std::size_t keys = 0;
    const double ours_cpu =
        median_cpu_seconds(5, [&] { (void)fleet::parse_query_range(body).series.size(); });
    const double dom = median_seconds(1, [&] { keys += nlohmann::json::parse(body).size(); });
    const double sax = median_seconds(1, [&] {
        CountingSax h;
        nlohmann::json::sax_parse(body, &h);
    });
    std::printf(
        "parse %.1f MB query_range answer (%zu points): %.0f MB/s wall, %.0f MB/s per "
        "CPU second (target >= 100); nlohmann_json DOM %.0f MB/s (%zu keys), SAX %.0f "
        "MB/s, wall\n",
        mb, points, mb / ours, mb / ours_cpu, mb / dom, keys, mb / sax);
}

void live_figures(std::size_t rows) {
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::temp_directory_path() / ("tokenscope_fleet_bench_" + std::to_string(getpid()));
    fs::create_directories(dir);
    fleet_test::Fleet f;
    f.start_s = std::time(nullptr) / 3600 * 3600 - 30 * 3600;
    f.hours.assign(rows, std::vector<fleet_test::HourSpec>(24));
    for (std::size_t r = 0; r < rows; ++r) {
        f.rows.push_back("model-" + std::to_string(r));
        for (std::size_t h = 0; h < 24; ++h)
            f.hours[r][h] = {0.05 + 0.001 * static_cast<double>(r + h), 0.5, 1000};
    }
    const auto t0 = Clock::now();
    fleet_test::write_openmetrics(f, (dir / "fleet.om").string());
    std::printf("live: %zu rows x 17 buckets x 289 samples written in %.1f s\n", rows,
                std::chrono::duration<double>(Clock::now() - t0).count());
    std::fflush(stdout);  // before the fork that starts Prometheus
    const auto t1 = Clock::now();
    fleet_test::PrometheusProcess server(dir / "prom", dir / "fleet.om");
    std::printf("live: backfilled and started in %.1f s\n",
                std::chrono::duration<double>(Clock::now() - t1).count());
    fleet::PrometheusClient client(
        {server.url(), "", fleet_test::kUser, fleet_test::kPassword, server.ca_file(), 30});
    fleet::FleetSpec spec;
    spec.metric = f.metric;
    spec.metric_key = "ttft";
    spec.by = f.label;
    spec.end_s = f.end_s();
    std::size_t cells = 0;
    const double s = median_seconds(5, [&] {
        const auto m = fleet::query_fleet(client, spec);
        cells = m.map.cells.size();
    });
    std::printf(
        "live: %zu x 24 matrix (%zu cells) fetched over HTTPS and computed in %.3f s "
        "(target <= 2 s)\n",
        rows, cells, s);
    fs::remove_all(dir);
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t rows = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200;
    parse_figures();
    try {
        live_figures(rows);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fleet_bench: live figures skipped: %s\n", e.what());
        return 1;
    }
    return 0;
}
