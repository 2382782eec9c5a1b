#include "run_combiner.h"

#include <stdexcept>

#include "analysis/join/client_server_join.h"
#include "import/merge/merge_ranks.h"

namespace tokenscope::ui {

std::vector<trace::RunData> RunCombiner::join(std::vector<std::vector<trace::RunData>> files,
                                              const std::vector<std::string>& paths,
                                              const trace::ProgressFn& progress,
                                              const trace::StopToken& stop) {
    if (files.size() != 2 || paths.size() != 2 || files[0].empty() || files[1].empty())
        throw std::runtime_error("a join needs one client result and one server trace");
    analysis::JoinOptions options;
    options.progress = progress;
    try {
        return {analysis::join_client_server(std::move(files[0].front()),
                                             std::move(files[1].front()), options, stop)};
    } catch (const analysis::JoinError& e) {
        // "FILE: problem" like every other error of opening files.
        const auto side = e.side();
        if (side == analysis::JoinError::Side::Both)
            throw std::runtime_error(paths[0] + " + " + paths[1] + ": " + e.problem());
        throw std::runtime_error((side == analysis::JoinError::Side::Client ? paths[0] : paths[1]) +
                                 ": " + e.problem());
    }
}

std::vector<trace::RunData> RunCombiner::merge(std::vector<std::vector<trace::RunData>> files,
                                               const std::vector<std::string>& paths,
                                               const trace::StopToken& stop) {
    std::vector<trace::RunData> ranks;
    for (auto& runs : files)
        for (auto& r : runs) ranks.push_back(std::move(r));
    try {
        return {import::merge_ranks(std::move(ranks), {}, stop)};
    } catch (const import::MergeError& e) {
        std::string names;
        for (const auto& p : paths) names += (names.empty() ? "" : ", ") + p;
        throw std::runtime_error(names + ": " + e.what());
    }
}

}  // namespace tokenscope::ui
