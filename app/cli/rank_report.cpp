#include "rank_report.h"

#include <map>
#include <string>

#include "format.h"
#include "json_out.h"
#include "text_table.h"

namespace tokenscope::cli {

void print_rank_steps(std::ostream& out, const LoadedRun& run,
                      const std::vector<analysis::StepRanks>& steps, bool csv) {
    if (steps.empty()) {
        if (!csv)
            out << "\nRanks: the run has fewer than two ranks (import several with "
                   "`import RANK0 RANK1 ... --merge`)\n";
        return;
    }
    std::vector<std::string> header = {"step",  "rank",    "straggler", "late_ms",
                                       "basis", "comm_ms", "overlap"};
    for (auto c : analysis::kCategories) header.push_back(std::string(to_string(c)) + "_ms");
    TextTable t(header);
    std::map<std::int32_t, int> straggles;
    for (const auto& s : steps) {
        if (s.straggler >= 0) ++straggles[s.straggler];
        for (const auto& r : s.ranks) {
            std::vector<std::string> row = {std::to_string(run.data.steps[s.step].index),
                                            std::to_string(r.rank),
                                            r.rank == s.straggler ? "yes" : "",
                                            format_ms(double(r.lateness_ns)),
                                            std::string(analysis::to_string(s.basis)),
                                            format_ms(double(r.comm_ns)),
                                            r.comm_ns > 0 ? format_percent(r.overlap_share()) : ""};
            for (auto c : analysis::kCategories)
                row.push_back(
                    format_ms(double(r.attribution.assigned[static_cast<std::size_t>(c)])));
            t.add_row(row);
        }
    }
    if (!csv) {
        out << "\nRanks (" << steps.front().ranks.size() << "): straggler per step";
        for (const auto& [rank, n] : straggles)
            out << (rank == straggles.begin()->first ? ": " : ", ") << "rank " << rank << " in "
                << n << " of " << steps.size();
        out << '\n';
    }
    t.print(out, csv);
}

nlohmann::json rank_steps_json(const trace::RunData& run,
                               const std::vector<analysis::StepRanks>& steps) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& s : steps) {
        nlohmann::json ranks = nlohmann::json::array();
        for (const auto& r : s.ranks)
            ranks.push_back({{"rank", r.rank},
                             {"lateness_ns", r.lateness_ns},
                             {"comm_ns", r.comm_ns},
                             {"overlap_ns", r.overlap_ns},
                             {"overlap_share", r.overlap_share()},
                             {"assigned_ns", to_json(r.attribution.assigned)},
                             {"hidden_ns", to_json(r.attribution.hidden)}});
        rows.push_back(
            {{"step", s.step},
             {"index", run.steps[s.step].index},
             {"straggler", s.straggler >= 0 ? nlohmann::json(s.straggler) : nlohmann::json()},
             {"lateness_ns", s.lateness_ns},
             {"basis", analysis::to_string(s.basis)},
             {"ranks", ranks}});
    }
    return {{"ranks", analysis::run_ranks(run)}, {"steps", rows}};
}

}  // namespace tokenscope::cli
