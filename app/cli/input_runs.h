#pragma once

#include <string>
#include <utility>
#include <vector>

#include "arg_parser.h"
#include "terminal_progress.h"
#include "trace/run_data.h"

namespace tokenscope::cli {

// The runs a reading command (info, stats, heatmap, diff, export, ...) takes as input:
// its FILE arguments opened, narrowed by --run (ui/window/run_loader.h is the GUI load job's
// reader of one file).
struct LoadedRun {
    std::string path;
    trace::RunData data;
};

// What a command reads of each run: its activities, or only their totals (info, stats and
// step heatmaps), which a summarised .tokenscope run gives without reading a single
// activity (trace::RunData::in_file; DESIGN.md section 17).
enum class Needs { Activities, Totals };

// Opens every file (a .tokenscope file gives all its runs, a foreign trace one run),
// with a progress bar. Errors propagate as StoreError / ImportError.
std::vector<LoadedRun> load_runs(const std::vector<std::string>& paths,
                                 TerminalProgress::Mode progress,
                                 const std::string& step_pattern = {},
                                 Needs needs = Needs::Activities);

// The two files of a two-file command (diff), as load_runs would open each. Both open
// at once on two threads, under one progress bar, when they are small enough for two
// imports to share memory (their sizes together at most 1/128 of the memory
// available: a gzipped trace can take 45 times its size while read); otherwise one
// after the other. When both fail, A's error is the one thrown, as in order.
std::pair<std::vector<LoadedRun>, std::vector<LoadedRun>> load_two(
    const std::string& a, const std::string& b, TerminalProgress::Mode progress,
    const std::string& step_pattern = {}, Needs needs = Needs::Activities);

// "--run" selects one run of a multi-run file by position (1-based) or by name.
std::vector<LoadedRun> select_runs(std::vector<LoadedRun> runs, const std::string& which);

// The input options every reading command takes: --run, --steps-from, --progress.
void add_input_options(ArgParser& p);
// Parses the arguments; prints the help and returns false when --help was given.
bool parse_or_help(ArgParser& p, const std::vector<std::string>& args);
// The runs of the FILE positionals (at least one), narrowed by --run.
std::vector<LoadedRun> load_inputs(const ArgParser& p, const std::string& command,
                                   Needs needs = Needs::Activities);
// A run opened without its activities (Needs::Totals), read again whole: a command that
// finds it needs them after all (a heatmap whose rows turn out to be kernels).
void read_activities(LoadedRun& run, const ArgParser& p);

// A run's display name, marked "(model)" when it is a cost-model run.
std::string display_name(const trace::RunData& run);

}  // namespace tokenscope::cli
