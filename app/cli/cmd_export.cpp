#include <cmath>
#include <iostream>
#include <optional>

#include "arg_parser.h"
#include "commands.h"
#include "export/aiperf_jsonl_writer.h"
#include "export/chrome_trace_writer.h"
#include "export/server_trace_view.h"
#include "export/time_window.h"
#include "format.h"
#include "input_runs.h"
#include "store/store_reader.h"
#include "trace/file_error.h"

namespace tokenscope::cli {
namespace {

// --client / --server: the join's ground truth. Both files share one Unix-time shift,
// so the client's clock differs from the server's by exactly --clock-offset (and each
// token by its jitter).
void export_ground_truth(const ArgParser& p, LoadedRun& in, TerminalProgress::Mode mode) {
    read_activities(in, p);  // a decode run: small, and the client side needs every token
    const trace::RunData& run = in.data;
    if (!exporter::has_token_steps(run))
        throw trace::FileError(in.path, "run '" + run.info.name +
                                            "' has no token steps (an engine trace?): there is "
                                            "no client side to export, nor iterations to mark");
    const double offset_s = p.get_double("clock-offset");
    const double jitter_us = p.get_double("jitter");
    const long long seed = p.get_int("seed");
    if (!std::isfinite(offset_s) || std::fabs(offset_s) > 9.0e8)
        throw UsageError{"export: --clock-offset must be a number of seconds"};
    if (!std::isfinite(jitter_us) || jitter_us < 0 || jitter_us > 1e9)
        throw UsageError{"export: --jitter must be a non-negative number of microseconds"};
    if (seed < 0) throw UsageError{"export: --seed must be non-negative"};
    const std::int64_t shift = exporter::unix_time_shift(run);
    if (p.has("server")) {
        TerminalProgress bar("writing server trace", mode);
        exporter::ChromeTraceWriter(exporter::server_trace_view(run, shift))
            .write_file(p.get("server"), bar.callback());
        bar.finish();
        std::cout << "wrote " << p.get("server") << " (engine trace, Unix-time clock)\n";
    }
    if (p.has("client")) {
        exporter::ClientView view{shift, std::llround(offset_s * 1e9),
                                  std::llround(jitter_us * 1e3), static_cast<std::uint64_t>(seed)};
        TerminalProgress bar("writing client results", mode);
        exporter::AiperfJsonlWriter(run, view).write_file(p.get("client"), bar.callback());
        bar.finish();
        std::cout << "wrote " << p.get("client") << " (AIPerf per-request JSONL; client clock "
                  << offset_s << " s ahead of the server's, jitter " << jitter_us << " us)\n";
    }
}

// The run the Chrome trace shows: its --from/--to window, read from the file when the
// run's activities stayed there (only the window's are read), else cut in memory.
void export_chrome(const ArgParser& p, const LoadedRun& in, TerminalProgress::Mode mode) {
    const trace::RunData& run = in.data;
    const bool windowed = p.has("from") || p.has("to");
    std::optional<trace::RunData> cut;
    // From the stored totals, or a count of every activity: found once.
    const exporter::TimeWindow span = exporter::run_span(run);
    const std::int64_t origin = span.start_ns;  // the ruler's zero
    exporter::TimeWindow w = span;
    if (windowed || run.in_file) {
        if (p.has("from")) w.start_ns = origin + p.get_duration_ns("from");
        if (p.has("to")) w.end_ns = origin + p.get_duration_ns("to");
        if (w.end_ns <= w.start_ns) throw UsageError{"export: --to must be after --from"};
        if (run.in_file) {
            // Not mapped: the launch chunks stream past once, and their pages would stay
            // resident. No walk of every activity chunk before the first read (minutes for a
            // billion activities whose file is not cached): a damaged page fails the read
            // that meets it, naming the file.
            store::StoreReader reader(in.path, store::ReaderOptions::stretches());
            TerminalProgress bar("reading the window", mode);
            cut = exporter::read_window(reader, run, w, bar.callback());
            bar.finish();
        } else {
            cut = exporter::cut_to_window(run, w);
        }
    }
    const trace::RunData& out = cut ? *cut : run;
    TerminalProgress bar("exporting", mode);
    exporter::ChromeTraceWriter(out).write_file(p.get("chrome"), bar.callback());
    bar.finish();
    std::cout << "wrote " << p.get("chrome");
    if (windowed) {
        std::cout << " (" << out.activities.size() << " activities, "
                  << format_ms(double(w.start_ns - origin)) << " to "
                  << format_ms(double(w.end_ns - origin)) << " ms)";
    }
    std::cout << '\n';
}

}  // namespace

int cmd_export(const std::vector<std::string>& args) {
    ArgParser p("export", "FILE [--chrome OUT.json] [--client OUT.jsonl --server OUT.json]",
                "Writes a run as Chrome trace event JSON, which Perfetto UI and chrome://tracing "
                "open: lanes named, API calls linked to kernels by flows. For a decode run "
                "(cuda, cpu, model), --client and --server write the ground truth of "
                "`import CLIENT SERVER --join`: its requests as AIPerf's per-request JSONL "
                "(profile_export.jsonl) and its engine side as a Kineto-style trace with one "
                "vLLM iteration marker per instant tokens came out, both on Unix time. --from and "
                "--to export a window of the run; of a run larger than memory, only the "
                "window's activities are read from its file.");
    p.option("chrome", "OUT", "the Chrome trace JSON file to write");
    p.option("client", "OUT.jsonl", "the client's per-request results to write (AIPerf layout)");
    p.option("server", "OUT.json", "the engine trace with iteration markers to write");
    p.option("clock-offset", "S", "--client: how far the client's clock runs ahead (seconds)", "0");
    p.option("jitter", "US",
             "--client: each token reaches the client uniformly 0..US microseconds after its "
             "iteration ends",
             "0");
    p.option("seed", "N", "--client: seed of the jitter", "1");
    p.option("from", "TIME",
             "--chrome: only what overlaps the window from TIME (12.5ms, 250us, 2s), counted "
             "from the run's first record as the timeline's ruler is");
    p.option("to", "TIME", "--chrome: ... to TIME (default: the run's end)");
    p.option("run", "N|NAME", "the run of a multi-run file", "1");
    p.option("steps-from", "REGEX",
             "foreign traces: ranges that define steps (default: the first iteration preset that "
             "matches: vLLM, TensorRT-LLM, SGLang, ProfilerStep#N, step N)");
    p.option("progress", "MODE", "auto, bar, json or none", "auto");
    if (!parse_or_help(p, args)) return kExitOk;
    if (p.positionals().size() != 1) throw UsageError{"export: needs exactly one FILE"};
    if (!p.has("chrome") && !p.has("client") && !p.has("server"))
        throw UsageError{"export: --chrome OUT.json, or --client / --server, is required"};
    auto mode = TerminalProgress::parse_mode(p.get("progress"));
    // A summarised run is opened without its activities: the window is read from the file.
    auto runs = select_runs(load_runs(p.positionals(), mode, p.get("steps-from"), Needs::Totals),
                            p.get("run"));
    if (p.has("chrome")) export_chrome(p, runs.front(), mode);
    if (p.has("client") || p.has("server")) export_ground_truth(p, runs.front(), mode);
    return kExitOk;
}

}  // namespace tokenscope::cli
