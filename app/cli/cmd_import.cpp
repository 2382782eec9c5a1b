#include <iostream>

#include "arg_parser.h"
#include "breakdown_report.h"
#include "commands.h"
#include "import/open_any.h"
#include "import_client_server.h"
#include "import_merge.h"
#include "input_runs.h"

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
    add_client_server_options(p);
    if (!parse_or_help(p, args)) return kExitOk;
    if (p.positionals().empty()) throw UsageError{"import: no input given (see --help)"};
    if (!p.has("out")) throw UsageError{"import: --out FILE is required"};
    import::ImportOptions options;
    if (p.has("steps-from")) options.step_pattern = p.get("steps-from");
    if (import_merged(p, options, TerminalProgress::parse_mode(p.get("progress")))) return kExitOk;
    if (import_client_server(p, options, TerminalProgress::parse_mode(p.get("progress"))))
        return kExitOk;
    TerminalProgress bar("importing", TerminalProgress::parse_mode(p.get("progress")));
    auto ids = import::import_files(p.positionals(), p.get("out"), options, bar.callback());
    bar.finish();
    attribute_written_runs(p.get("out"), ids, TerminalProgress::parse_mode(p.get("progress")));
    std::cout << "imported " << ids.size() << " run(s) into " << p.get("out") << '\n';
    return kExitOk;
}

}  // namespace tokenscope::cli
