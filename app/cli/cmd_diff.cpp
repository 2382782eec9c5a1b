#include <iostream>
#include <utility>

#include "analysis/compare/diff.h"
#include "arg_parser.h"
#include "commands.h"
#include "diff_report.h"
#include "heatmap_options.h"
#include "input_runs.h"
#include "json_out.h"

namespace tokenscope::cli {

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
    auto [runs_a, runs_b] =
        load_two(p.positionals()[0], p.positionals()[1], mode, p.get("steps-from"));
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
    auto d = analysis::diff_runs(a.front().data, b.front().data, options);
    if (p.has("json"))
        std::cout << json_text(diff_json(a.front(), b.front(), d)) << '\n';
    else
        print_diff(std::cout, a.front(), b.front(), d, static_cast<std::size_t>(p.get_int("top")),
                   p.has("csv"));
    return kExitOk;
}

}  // namespace tokenscope::cli
