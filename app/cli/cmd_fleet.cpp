#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include "analysis/heatmap/heatmap_csv.h"
#include "arg_parser.h"
#include "commands.h"
#include "fleet/alert_rules.h"
#include "fleet/fleet_error.h"
#include "fleet/fleet_source.h"
#include "fleet_report.h"
#include "heatmap_image_export.h"
#include "image_options.h"
#include "input_runs.h"
#include "terminal_progress.h"

namespace tokenscope::cli {
namespace {

void add_options(ArgParser& p) {
    p.option("url", "URL", "Prometheus (or Thanos, Mimir, VictoriaMetrics) base URL");
    p.option("metric", "M",
             "ttft, itl, e2e, queue, tpot (presets: vLLM's histograms, else SGLang's, else "
             "TGI's where vLLM's have no data) or any histogram's name",
             "ttft");
    p.option("engine", "E",
             "vllm, sglang or tgi: take the preset's names of this engine only (default: each "
             "in turn)");
    p.option("by", "LABEL", "one row per value of this label (model_name, instance, ...)");
    p.option(
        "match", "MATCHERS",
        "extra PromQL label matchers for the selector, e.g. 'job=\"vllm\",namespace=~\"prod.*\"'");
    p.option("range", "D", "time covered, a Prometheus duration", "24h");
    p.option("window", "D", "window width; windows end on multiples of it", "1h");
    p.option("end", "TIME",
             "RFC 3339 or Unix seconds; the last window ends at or before it (default: now, or "
             "the last timestamp of FILE)");
    p.option("at", "TIMES",
             "/metrics scrapes: when each FILE without a '# scraped at' line was scraped, "
             "comma-separated in FILE order (default: the file's modification time)");
    p.option("quantile", "Q", "the quantile of each cell, 0.5 to 0.999", "0.95");
    p.option("sla-windows", "N", "calibrate each row's SLA on the first N windows (0 = half)", "0");
    p.option("token-file", "F", "bearer token, read from this file");
    p.option("user", "NAME", "basic auth user (the password from --password-file)");
    p.option("password-file", "F", "basic auth password, read from this file");
    p.option("ca-file", "F", "PEM CA bundle to trust for https:// (self-signed servers)");
    p.option("timeout", "D", "give up on the server after this long", "30s");
    p.flag("json", "print JSON").flag("csv", "print the matrix as CSV (ns)");
    add_image_options(p);
    p.option("rules", "FILE", "write Prometheus alerting rules with the calibrated thresholds");
    p.option("save", "FILE", "save the server's answer, to reproduce the matrix offline");
    p.option("progress", "MODE", "auto, bar, json or none", "auto");
}

std::int64_t duration_option(const ArgParser& p, const std::string& name) {
    try {
        return fleet::parse_duration(p.get(name));
    } catch (const std::invalid_argument& e) {
        throw UsageError{"fleet: --" + name + ": " + e.what()};
    }
}

// A secret from a file: the first line, so a trailing newline from `echo` is no part of it.
std::string read_secret(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw fleet::FleetError(path, "cannot open for reading");
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty())
        throw fleet::FleetError(path, "empty (expected the secret on its first line)");
    return line;
}

std::optional<fleet::Engine> engine_option(const ArgParser& p) {
    if (!p.has("engine")) return std::nullopt;
    if (auto e = fleet::parse_engine(p.get("engine"))) return e;
    throw UsageError{"fleet: --engine '" + p.get("engine") + "': one of " + fleet::engine_names()};
}

fleet::FleetSpec spec_from(const ArgParser& p) {
    fleet::FleetSpec spec;
    try {
        fleet::set_metric(spec, p.get("metric"), engine_option(p));
    } catch (const std::invalid_argument& e) {
        throw UsageError{std::string("fleet: --metric ") + p.get("metric") + ": " + e.what()};
    }
    if (!p.has("by")) throw UsageError{"fleet: --by LABEL is required (e.g. --by model_name)"};
    spec.by = p.get("by");
    if (!fleet::valid_label_name(spec.by) || spec.by == "le")
        throw UsageError{"fleet: --by '" + spec.by + "' is not a label name one can group by"};
    spec.match = p.get("match");
    spec.range_s = duration_option(p, "range");
    spec.window_s = duration_option(p, "window");
    spec.quantile = p.get_double("quantile");
    if (!(spec.quantile >= 0.5 && spec.quantile <= 0.999))
        throw UsageError{"fleet: --quantile must be between 0.5 and 0.999, got " +
                         p.get("quantile")};
    const long long sla = p.get_int("sla-windows");
    if (sla < 0) throw UsageError{"fleet: --sla-windows must be >= 0"};
    spec.sla_windows = static_cast<std::size_t>(sla);
    try {
        fleet::window_ends(spec);  // throws on a range or window it cannot cut
    } catch (const std::invalid_argument& e) {
        throw UsageError{std::string("fleet: ") + e.what()};
    }
    return spec;
}

std::optional<std::int64_t> end_option(const ArgParser& p) {
    if (!p.has("end")) return std::nullopt;
    try {
        return fleet::parse_time(p.get("end"));
    } catch (const std::invalid_argument& e) {
        throw UsageError{std::string("fleet: --end ") + e.what()};
    }
}

std::vector<std::int64_t> at_option(const ArgParser& p) {
    std::vector<std::int64_t> times;
    if (!p.has("at")) return times;
    std::istringstream in(p.get("at"));
    for (std::string item; std::getline(in, item, ',');) {
        try {
            times.push_back(fleet::parse_time(item));
        } catch (const std::invalid_argument& e) {
            throw UsageError{std::string("fleet: --at ") + e.what()};
        }
    }
    return times;
}

// Options that cut windows out of a time range mean nothing between scrapes.
void check_snapshot_options(const ArgParser& p, const fleet::FleetMatrix& m) {
    if (!m.snapshot) return;
    for (const char* name : {"end", "range"})
        if (p.has(name))
            throw UsageError{std::string("fleet: --") + name +
                             " does not apply to /metrics scrapes: their windows lie between "
                             "the scrapes (times from '# scraped at', --at or the file)"};
}

fleet::PrometheusConfig config_from(const ArgParser& p) {
    fleet::PrometheusConfig c;
    c.url = p.get("url");
    if (p.has("token-file")) c.bearer_token = read_secret(p.get("token-file"));
    if (p.has("user")) {
        c.user = p.get("user");
        if (!p.has("password-file")) throw UsageError{"fleet: --user needs --password-file"};
        c.password = read_secret(p.get("password-file"));
    }
    if (p.has("ca-file")) {
        c.ca_file = p.get("ca-file");
        if (!std::ifstream(c.ca_file))
            throw fleet::FleetError(c.ca_file, "cannot open for reading");
    }
    c.timeout_s = static_cast<double>(duration_option(p, "timeout"));
    if (c.timeout_s <= 0) throw UsageError{"fleet: --timeout must be positive"};
    return c;
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw fleet::FleetError(path, "cannot write");
    std::cerr << "wrote " << path << '\n';
}

void export_outputs(const ArgParser& p, const fleet::FleetMatrix& m, const std::string& source) {
    if (p.has("rules")) {
        std::ostringstream rules;
        fleet::write_alert_rules(m, rules);
        write_file(p.get("rules"), rules.str());
    }
    const ImageSize size = image_size_from(p, "fleet");
    std::string title = "q" + std::to_string(m.spec.quantile).substr(0, 5) + " " + m.spec.metric +
                        " by " + m.spec.by;
    if (m.snapshot && m.snapshot->since_start) title += ", since the server started";
    for (const auto& [format, file] : image_files(p)) {
        export_fleet_image(m, source, title, file, size.width, size.height, size.dpi);
        std::cerr << "wrote " << file << '\n';
    }
}

fleet::FleetMatrix load_matrix(const ArgParser& p, fleet::FleetSpec spec, std::string& source) {
    const auto end = end_option(p);
    if (!p.positionals().empty()) {
        if (p.has("url")) throw UsageError{"fleet: give either --url or FILE..."};
        if (p.has("match")) throw UsageError{"fleet: --match needs --url (a FILE is read whole)"};
        if (p.has("save")) throw UsageError{"fleet: --save needs --url (it saves the answer)"};
        for (const auto& file : p.positionals()) source += (source.empty() ? "" : ", ") + file;
        auto m = fleet::read_fleet_files(p.positionals(), spec, {end, at_option(p)});
        check_snapshot_options(p, m);
        return m;
    }
    if (p.has("at")) throw UsageError{"fleet: --at gives the times of scrape FILEs"};
    if (!p.has("url")) throw UsageError{"fleet: no --url and no FILE given (see --help)"};
    spec.end_s = end.value_or(static_cast<std::int64_t>(std::time(nullptr)));
    fleet::PrometheusClient client(config_from(p));
    source = client.endpoint("");
    TerminalProgress bar("querying " + source, TerminalProgress::parse_mode(p.get("progress")));
    std::string body;
    auto m = fleet::query_fleet(client, spec, {}, bar.callback(), p.has("save") ? &body : nullptr);
    bar.finish();
    if (p.has("save")) write_file(p.get("save"), body);
    return m;
}

}  // namespace

int cmd_fleet(const std::vector<std::string>& args) {
    ArgParser p("fleet", "(--url URL | FILE...) --by LABEL [options]",
                "The fleet heatmap from Prometheus' query_range: one row "
                "per label value, one column per window, each cell the quantile of the window's "
                "histogram buckets (increase, then linear interpolation inside a bucket, as "
                "histogram_quantile); per-row SLA, recalibration flags and the calibration; "
                "--rules writes one alert per row (TokenscopeFleetSLA, severity=warning, for: 3 "
                "windows). FILE: an answer saved with --save, an OpenMetrics text file with "
                "timestamps, or /metrics scrapes of one server (text exposition, no timestamps): "
                "one scrape gives one window since the server started, several the windows "
                "between them; a file may hold several, each after a '# scraped at TIME' line.");
    add_options(p);
    if (!parse_or_help(p, args)) return kExitOk;
    std::string source;
    const fleet::FleetMatrix m = load_matrix(p, spec_from(p), source);
    export_outputs(p, m, source);
    if (p.has("json")) {
        std::cout << fleet_json(m, source).dump(2) << '\n';
    } else if (p.has("csv")) {
        analysis::write_heatmap_csv(m.map, std::cout);
        if (m.snapshot)
            for (const auto& d : m.snapshot->diagnostics) std::cerr << "warning: " << d << '\n';
    } else {
        print_fleet_text(m, source, std::cout);
    }
    return kExitOk;
}

}  // namespace tokenscope::cli
