#include <iostream>

#include "arg_parser.h"
#include "commands.h"
#include "import/chrome/chrome_trace_writer.h"
#include "import/open_any.h"
#include "import_merge.h"
#include "run_loader.h"

namespace tokenscope::cli {

int cmd_import(const std::vector<std::string>& args) {
    ArgParser p("import", "IN... --out FILE [options]",
                "Imports traces (Nsight Systems SQLite export, PyTorch profiler/Kineto JSON "
                "plain or gzip, vLLM bench serve results, AIPerf/GenAI-Perf profile exports, "
                "guidellm reports, LLMPerf individual responses or summaries, or .tokenscope "
                "files) into FILE, one run per input. The format is chosen by content. A bad "
                "input leaves FILE as it was.");
    p.option("out", "FILE", "the .tokenscope file to add the runs to");
    p.option("steps-from", "REGEX",
             "ranges (NVTX, user annotations) that define steps (default: the first "
             "iteration preset that matches: vLLM, TensorRT-LLM, SGLang, ProfilerStep#N, step N)");
    p.option("progress", "MODE", "auto, bar, json or none", "auto");
    add_merge_options(p);
    if (!parse_or_help(p, args)) return kExitOk;
    if (p.positionals().empty()) throw UsageError{"import: no input given (see --help)"};
    if (!p.has("out")) throw UsageError{"import: --out FILE is required"};
    import::ImportOptions options;
    if (p.has("steps-from")) options.step_pattern = p.get("steps-from");
    if (import_merged(p, options, TerminalProgress::parse_mode(p.get("progress")))) return kExitOk;
    TerminalProgress bar("importing", TerminalProgress::parse_mode(p.get("progress")));
    auto ids = import::import_files(p.positionals(), p.get("out"), options, bar.callback());
    bar.finish();
    std::cout << "imported " << ids.size() << " run(s) into " << p.get("out") << '\n';
    return kExitOk;
}

int cmd_export(const std::vector<std::string>& args) {
    ArgParser p("export", "FILE --chrome OUT.json [options]",
                "Writes a run as Chrome trace event JSON, which Perfetto UI and "
                "chrome://tracing open: lanes named, API calls linked to kernels by flows.");
    p.option("chrome", "OUT", "the Chrome trace JSON file to write");
    p.option("run", "N|NAME", "the run of a multi-run file", "1");
    p.option("steps-from", "REGEX",
             "foreign traces: ranges that define steps (default: the first iteration preset that "
             "matches: vLLM, TensorRT-LLM, SGLang, ProfilerStep#N, step N)");
    p.option("progress", "MODE", "auto, bar, json or none", "auto");
    if (!parse_or_help(p, args)) return kExitOk;
    if (p.positionals().size() != 1) throw UsageError{"export: needs exactly one FILE"};
    if (!p.has("chrome")) throw UsageError{"export: --chrome OUT.json is required"};
    auto mode = TerminalProgress::parse_mode(p.get("progress"));
    auto runs = select_runs(load_runs(p.positionals(), mode, p.get("steps-from")), p.get("run"));
    TerminalProgress bar("exporting", mode);
    import::ChromeTraceWriter(runs.front().data).write_file(p.get("chrome"), bar.callback());
    bar.finish();
    std::cout << "wrote " << p.get("chrome") << '\n';
    return kExitOk;
}

}  // namespace tokenscope::cli
