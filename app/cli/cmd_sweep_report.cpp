#include <iostream>
#include <stdexcept>

#include "arg_parser.h"
#include "capture/sweep/sweep_point.h"
#include "commands.h"
#include "image_options.h"
#include "input_runs.h"
#include "sweep_image_export.h"
#include "sweep_report.h"

namespace tokenscope::cli {
namespace {

std::optional<std::int64_t> bound(const ArgParser& p, const std::string& name) {
    if (!p.has(name)) return std::nullopt;
    try {
        return capture::parse_duration_ns(p.get(name));
    } catch (const std::invalid_argument& e) {
        throw UsageError{"sweep-report: --" + name + ": " + e.what()};
    }
}

void export_images(const ArgParser& p, const SweepReport& r) {
    const ImageSize size = image_size_from(p, "sweep-report");
    for (const char* kind : {"grid", "pareto", "knee", "strategies"})
        if (p.has(kind))
            export_sweep_image(r, kind, p.get(kind), size.width, size.height, size.dpi);
}

}  // namespace

int cmd_sweep_report(const std::vector<std::string>& args) {
    ArgParser p("sweep-report", "FILE [options] | RESULT... [options]",
                "SLA attainment (goodput: the fraction of requests with TTFT and TPOT within the "
                "bounds, failed requests missing), each point's median and spread over its "
                "repeats, the Pareto frontier, the power-law fit y = a*x^b + c with R^2 and the "
                "Kneedle knee of a sweep in FILE; or the same over serving-benchmark and "
                "load-generator results, files or folders of them: vLLM bench serve JSON, "
                "SGLang bench_serving JSONL (a point per line), guidellm reports (a point per "
                "benchmark, its measurement window only), AIPerf multi-run folders (one point, "
                "its runs the repeats), GenAI-Perf and LLMPerf results.");
    p.option("sla-ttft", "T", "TTFT bound, e.g. 200ms (default: none)");
    p.option("sla-tpot", "T", "TPOT bound, e.g. 50ms (default: none)");
    p.option("sweep", "ID", "which sweep of FILE (0: the last)", "0");
    p.option("x", "NAME", "x of the curve: a parameter or figure (default: the load axis)");
    p.option("y", "FIGURE", "y of the curve: ttft_p99, tpot_p50, e2e_p90, ...", "ttft_p99");
    p.flag("json", "JSON output (times in ns)");
    p.flag("csv", "the point table as CSV, with spreads");
    p.option("grid", "FILE", "save the SLA-attainment grid (batch x prompt) as PNG, SVG or PDF");
    p.option("pareto", "FILE", "save the Pareto plot with the frontier, fit and knee");
    p.option("knee", "FILE", "save the curve with its chord and Kneedle knee");
    p.option("strategies", "FILE",
             "save the decoding strategies side by side (TTFT, TPOT P50/P90, std) as PNG, SVG, "
             "PDF or CSV");
    add_image_size_options(p);
    if (!parse_or_help(p, args)) return kExitOk;
    SweepReport r;
    r.input = load_sweep_input(p.positionals(), p.get_int("sweep"));
    r.sla.ttft_ns = bound(p, "sla-ttft");
    r.sla.tpot_ns = bound(p, "sla-tpot");
    r.points = analysis::summarize_sweep(r.input.points, r.sla);
    const std::string x = p.has("x") ? p.get("x") : default_x(r);
    r.curve = analysis::sweep_curve(r.points, x, p.get("y"));
    export_images(p, r);
    if (p.has("json"))
        std::cout << sweep_json(r).dump(2) << '\n';
    else if (p.has("csv"))
        print_sweep_csv(std::cout, r);
    else
        print_sweep_text(std::cout, r);
    return kExitOk;
}

}  // namespace tokenscope::cli
