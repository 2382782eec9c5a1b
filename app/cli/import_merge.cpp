#include "import_merge.h"

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "breakdown_report.h"
#include "import/merge/merge_ranks.h"
#include "import/open_any.h"
#include "store/store_writer.h"

namespace tokenscope::cli {
namespace {

import::ClockAlignment parse_alignment(const std::string& text){
    for (auto a: {import::ClockAlignment::Auto, import::ClockAlignment::StartTimes,
                  import::ClockAlignment::Collectives,
                  import::ClockAlignment::None}) if (text == import::to_string(a)) return a;
throw UsageError{"import: --align must be auto, start_times, collectives or none (got '" + text +
                 "')"};
}  // namespace

// Each input is one rank: one run, read with progress spanning all inputs.
std::vector<trace::RunData> read_ranks(const std::vector<std::string>& paths,
                                       const import::ImportOptions& options,
                                       TerminalProgress& bar) {
    std::vector<trace::RunData> ranks;
    const trace::ProgressFn report = bar.callback();
    const auto n = static_cast<std::int64_t>(paths.size());
    for (std::int64_t i = 0; i < n; ++i) {
        const std::string& path = paths[static_cast<std::size_t>(i)];
        auto runs = import::open_any(path, options, [&](std::int64_t done, std::int64_t total) {
            const double f = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0;
            return report(i * 1000 + std::llround(f * 1000), n * 1000);
        });
        if (runs.size() != 1)
            throw UsageError{"import: " + path + " holds " + std::to_string(runs.size()) +
                             " runs; --merge takes one run per rank and file"};
        ranks.push_back(std::move(runs.front()));
    }
    return ranks;
}

void print_clocks(const trace::RunData& merged) {
    for (const auto& d : merged.diagnostics)
        if (d.name == "merge_clock_offset" || d.name == "merge_clock_residual" ||
            d.name == "merge_ranks_by_position")
            std::cout << "  " << d.name << ": " << d.text << '\n';
}

}  // namespace tokenscope::cli

void add_merge_options(ArgParser& p) {
    p.flag("merge",
           "make ONE run of all inputs, one rank each (per-rank Kineto traces, one nsys export "
           "per node): lanes grouped by rank and GPU, clocks aligned");
    p.option("align", "MODE",
             "--merge clock alignment: auto (the files' start times where all have one, else "
             "NCCL collective ends), start_times, collectives or none",
             "auto");
}

bool import_merged(const ArgParser& p, const import::ImportOptions& options,
                   TerminalProgress::Mode progress) {
    if (!p.has("merge")) return false;
    if (p.positionals().size() < 2)
        throw UsageError{"import: --merge needs two or more inputs, one per rank"};
    import::MergeOptions merge;
    merge.alignment = parse_alignment(p.get("align"));
    TerminalProgress bar("importing ranks", progress);
    std::vector<trace::RunData> ranks = read_ranks(p.positionals(), options, bar);
    bar.finish();
    const std::size_t n = ranks.size();
    trace::RunData merged;
    try {
        merged = import::merge_ranks(std::move(ranks), merge);
    } catch (const import::MergeError& e) {  // the inputs' fault, named in the message
        throw UsageError{std::string("import --merge: ") + e.what()};
    }
    TerminalProgress write_bar("writing", progress);
    const auto id = store::StoreWriter(p.get("out")).write_run(merged, write_bar.callback());
    write_bar.finish();
    attribute_written_runs(p.get("out"), {id}, progress);
    std::cout << "imported 1 run of " << n << " ranks (" << merged.lanes.size() << " lanes, "
              << merged.activities.size() << " activities) into " << p.get("out") << '\n';
    print_clocks(merged);
    return true;
}

}  // namespace tokenscope::cli
