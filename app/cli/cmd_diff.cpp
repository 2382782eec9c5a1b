#include <iostream>
#include <optional>
#include <utility>

#include "analysis/compare/diff.h"
#include "analysis/compare/stored_diff.h"
#include "analysis/heatmap/stored_heatmap.h"
#include "arg_parser.h"
#include "breakdown_report.h"
#include "commands.h"
#include "diff_report.h"
#include "heatmap_options.h"
#include "input_runs.h"
#include "json_out.h"
#include "store/store_reader.h"

namespace tokenscope::cli {
namespace {

// What diff_runs reads from the activities of a run left in its .tokenscope file
// (trace::RunData::in_file), read from the file instead: its steps' attribution (kept
// there, or analysed slice by slice, as breakdown reads it), its ActivityFigures and a
// kernel heatmap (its P95s within Heatmap::value_error).
struct FromFile {
    std::vector<analysis::StepAttribution> steps;
    analysis::ActivityFigures figures;
    std::optional<analysis::Heatmap> heatmap;
};

std::optional<FromFile> from_file(const LoadedRun& run, const ArgParser& p,
                                  const std::optional<analysis::HeatmapSpec>& heatmap) {
    if (!run.data.in_file) return std::nullopt;
    FromFile out;
    out.steps = compute_breakdown(run, p).steps;
    const store::StoreReader reader(run.path, store::ReaderOptions::pass());
    TerminalProgress bar("reading the kernels of " + run.path,
                         TerminalProgress::parse_mode(p.get("progress")));
    out.figures = analysis::stored_activity_figures(reader, run.data, bar.callback());
    bar.finish();
    // Step metrics need no activity: diff_runs computes those heatmaps from the steps.
    if (heatmap && heatmap->metric == analysis::HeatmapMetric::KernelDuration)
        out.heatmap = analysis::compute_stored_heatmap(reader, run.data, *heatmap);
    return out;
}

}  // namespace

int cmd_diff(const std::vector<std::string>& args) {
    ArgParser p("diff", "A B [options]",
                "Compares run B with run A: per metric A, B, delta and "
                "delta% with Mann-Whitney significance (p < 0.01), attribution per category, "
                "and per-kernel count, total, mean and P95 deltas matched by kernel name.");
    p.flag("json", "print JSON (includes the delta heatmap)").flag("csv", "print CSV rows");
    p.option("top", "N", "kernels listed in the text table", "15");
    p.option("run-a", "N|NAME", "run of A when A holds several", "1");
    p.option("run-b", "N|NAME", "run of B when B holds several", "1");
    p.option("warmup-requests", "N", "exclude the first N requests", "0");
    p.option("warmup-steps", "N", "exclude tokens with index < N", "0");
    p.option("heatmap-rows", "KEY", "delta heatmap rows (json): phase, request, position, kernel",
             "phase");
    p.option("heatmap-window", "W", "delta heatmap window (json)", "16steps");
    p.option("steps-from", "REGEX",
             "foreign traces: ranges that define steps (default: the first iteration preset that "
             "matches: vLLM, TensorRT-LLM, SGLang, ProfilerStep#N, step N)");
    p.option("progress", "MODE", "auto, bar, json or none", "auto");
    if (!parse_or_help(p, args)) return kExitOk;
    if (p.positionals().size() != 2) throw UsageError{"diff: needs exactly two files, A and B"};
    auto mode = TerminalProgress::parse_mode(p.get("progress"));
    // A summarised .tokenscope run is left in its file: what the diff needs of its
    // activities is read from there, a stretch at a time (from_file).
    auto [runs_a, runs_b] =
        load_two(p.positionals()[0], p.positionals()[1], mode, p.get("steps-from"), Needs::Totals);
    auto a = select_runs(std::move(runs_a), p.get("run-a"));
    auto b = select_runs(std::move(runs_b), p.get("run-b"));
    analysis::DiffOptions options;
    options.metrics.warmup_requests = static_cast<std::size_t>(p.get_int("warmup-requests"));
    options.metrics.warmup_steps = static_cast<std::size_t>(p.get_int("warmup-steps"));
    if (p.has("json")) {
        analysis::HeatmapSpec spec;
        auto rows = analysis::heatmap_rows_from_string(p.get("heatmap-rows"));
        if (!rows) throw UsageError{"diff: unknown --heatmap-rows '" + p.get("heatmap-rows") + "'"};
        spec.rows = *rows;
        if (analysis::kernel_metric_rows(spec.rows))
            spec.metric = analysis::HeatmapMetric::KernelDuration;
        parse_window(p.get("heatmap-window"), spec);
        options.heatmap = spec;
    }
    const auto file_a = from_file(a.front(), p, options.heatmap);
    const auto file_b = from_file(b.front(), p, options.heatmap);
    analysis::DiffInputs inputs;
    if (file_a) {
        inputs.steps_a = &file_a->steps;
        inputs.figures_a = &file_a->figures;
        if (file_a->heatmap) inputs.heatmap_a = &*file_a->heatmap;
    }
    if (file_b) {
        inputs.steps_b = &file_b->steps;
        inputs.figures_b = &file_b->figures;
        if (file_b->heatmap) inputs.heatmap_b = &*file_b->heatmap;
    }
    auto d = analysis::diff_runs(a.front().data, b.front().data, options, inputs);
    if (p.has("json"))
        std::cout << json_text(diff_json(a.front(), b.front(), d)) << '\n';
    else
        print_diff(std::cout, a.front(), b.front(), d, static_cast<std::size_t>(p.get_int("top")),
                   p.has("csv"));
    return kExitOk;
}

}  // namespace tokenscope::cli
