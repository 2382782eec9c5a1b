#include "input_runs.h"

#include <iostream>

#include "import/open_any.h"
#include "trace/run_label.h"

namespace tokenscope::cli {

std::vector<LoadedRun> load_runs(const std::vector<std::string>& paths,
                                 TerminalProgress::Mode progress, const std::string& step_pattern) {
    std::vector<LoadedRun> out;
    import::ImportOptions options;
    if (!step_pattern.empty()) options.step_pattern = step_pattern;
    for (const auto& path : paths) {
        TerminalProgress bar("opening " + path, progress);
        auto runs = import::open_any(path, options, bar.callback());
        bar.finish();
        for (auto& r : runs) out.push_back({path, std::move(r)});
    }
    return out;
}

std::vector<LoadedRun> select_runs(std::vector<LoadedRun> runs, const std::string& which) {
    if (which.empty()) return runs;
    std::vector<LoadedRun> out;
    char* end = nullptr;
    long index = std::strtol(which.c_str(), &end, 10);
    bool numeric = end && *end == '\0';
    for (std::size_t i = 0; i < runs.size(); ++i) {
        bool hit = numeric ? static_cast<long>(i + 1) == index : runs[i].data.info.name == which;
        if (hit) out.push_back(std::move(runs[i]));
    }
    if (out.empty())
        throw UsageError{"no run '" + which + "' (the file has " + std::to_string(runs.size()) +
                         " runs)"};
    return out;
}

void add_input_options(ArgParser& p) {
    p.option("run", "N|NAME", "only this run of a multi-run file");
    p.option("steps-from", "REGEX",
             "foreign traces: ranges that define steps (default: the first iteration preset that "
             "matches: vLLM, TensorRT-LLM, SGLang, ProfilerStep#N, step N)");
    p.option("progress", "MODE", "auto, bar, json or none", "auto");
}

bool parse_or_help(ArgParser& p, const std::vector<std::string>& args) {
    p.parse(args);
    if (!p.help_requested()) return true;
    std::cout << p.help_text();
    return false;
}

std::vector<LoadedRun> load_inputs(const ArgParser& p, const std::string& command) {
    if (p.positionals().empty()) throw UsageError{command + ": no FILE given (see --help)"};
    auto mode = TerminalProgress::parse_mode(p.get("progress"));
    return select_runs(load_runs(p.positionals(), mode, p.get("steps-from")), p.get("run"));
}

std::string display_name(const trace::RunData& run) {
    return trace::run_label(run.info);
}

}  // namespace tokenscope::cli
