#include "input_runs.h"

#include <exception>
#include <filesystem>
#include <future>
#include <iostream>
#include <mutex>

#include "import/open_any.h"
#include "store/store_reader.h"
#include "trace/memory_budget.h"
#include "trace/run_label.h"

namespace tokenscope::cli {

std::vector<LoadedRun> load_runs(const std::vector<std::string>& paths,
                                 TerminalProgress::Mode progress, const std::string& step_pattern,
                                 Needs needs) {
    std::vector<LoadedRun> out;
    import::ImportOptions options;
    if (!step_pattern.empty()) options.step_pattern = step_pattern;
    options.read_activities = needs == Needs::Activities;
    for (const auto& path : paths) {
        TerminalProgress bar("opening " + path, progress);
        auto runs = import::open_any(path, options, bar.callback());
        bar.finish();
        for (auto& r : runs) out.push_back({path, std::move(r)});
    }
    return out;
}

namespace {

std::vector<LoadedRun> open_one(const std::string& path, const import::ImportOptions& options,
                                const trace::ProgressFn& progress) {
    std::vector<LoadedRun> out;
    for (auto& r : import::open_any(path, options, progress)) out.push_back({path, std::move(r)});
    return out;
}

// Two imports' progress as one bar: the sums of what each has read and has to read.
class PairProgress {
  public:
    explicit PairProgress(trace::ProgressFn out) : out_(std::move(out)) {}
    trace::ProgressFn part(int i) {
        return [this, i](std::int64_t done, std::int64_t total) {
            std::lock_guard lock(mutex_);
            done_[i] = done;
            total_[i] = total;
            return out_(done_[0] + done_[1], total_[0] + total_[1]);
        };
    }

  private:
    std::mutex mutex_;
    trace::ProgressFn out_;
    std::int64_t done_[2] = {0, 0};
    std::int64_t total_[2] = {0, 0};
};

bool fits_two_at_once(const std::string& a, const std::string& b) {
    std::error_code ec_a, ec_b;
    const auto size_a = std::filesystem::file_size(a, ec_a);
    const auto size_b = std::filesystem::file_size(b, ec_b);
    if (ec_a || ec_b) return false;  // let the sequential open name the problem
    return (size_a + size_b) * 128 <= trace::available_memory_bytes();
}

}  // namespace

std::pair<std::vector<LoadedRun>, std::vector<LoadedRun>> load_two(const std::string& a,
                                                                   const std::string& b,
                                                                   TerminalProgress::Mode progress,
                                                                   const std::string& step_pattern,
                                                                   Needs needs) {
    if (!fits_two_at_once(a, b))
        return {load_runs({a}, progress, step_pattern, needs),
                load_runs({b}, progress, step_pattern, needs)};
    import::ImportOptions options;
    if (!step_pattern.empty()) options.step_pattern = step_pattern;
    options.read_activities = needs == Needs::Activities;
    // The two opens keep both cores busy already: a third and fourth thread inflating
    // alongside them made `diff` of HTA's pair 8% slower.
    options.inflate_alongside = false;
    TerminalProgress bar("opening " + a + " and " + b, progress);
    PairProgress shared(bar.callback());
    auto second =
        std::async(std::launch::async, [&] { return open_one(b, options, shared.part(1)); });
    std::vector<LoadedRun> first;
    std::exception_ptr first_error;
    try {
        first = open_one(a, options, shared.part(0));
    } catch (...) {
        first_error = std::current_exception();
    }
    std::vector<LoadedRun> runs_b;
    try {
        runs_b = second.get();
    } catch (...) {
        if (!first_error) throw;
    }
    if (first_error) std::rethrow_exception(first_error);
    bar.finish();
    return {std::move(first), std::move(runs_b)};
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

std::vector<LoadedRun> load_inputs(const ArgParser& p, const std::string& command, Needs needs) {
    if (p.positionals().empty()) throw UsageError{command + ": no FILE given (see --help)"};
    auto mode = TerminalProgress::parse_mode(p.get("progress"));
    return select_runs(load_runs(p.positionals(), mode, p.get("steps-from"), needs), p.get("run"));
}

void read_activities(LoadedRun& run, const ArgParser& p) {
    if (!run.data.in_file) return;
    // Only a .tokenscope run is ever left without its activities: read that run again.
    store::StoreReader reader(run.path);
    TerminalProgress bar("opening " + run.path, TerminalProgress::parse_mode(p.get("progress")));
    run.data = reader.load_run(run.data.info.id, bar.callback());
    bar.finish();
}

std::string display_name(const trace::RunData& run) {
    return trace::run_label(run.info);
}

}  // namespace tokenscope::cli
