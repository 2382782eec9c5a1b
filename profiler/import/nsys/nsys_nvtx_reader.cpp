#include "nsys_nvtx_reader.h"

#include <algorithm>
#include <cctype>

#include "import/import_error.h"
#include "import/iteration_window.h"
#include "nsys_database.h"
#include "nsys_lane_map.h"
#include "nsys_progress.h"
#include "nsys_strings.h"

namespace tokenscope::import {
namespace {

constexpr const char* kNvtx = "NVTX_EVENTS";

StepSelector compile(const std::string& path, const std::string& pattern) {
    try {
        return StepSelector(pattern);
    } catch (const std::regex_error& e) {
        throw ImportError(path, "invalid step pattern '" + pattern + "' (" + e.what() + ")");
    }
}

}  // namespace

NsysNvtxReader::NsysNvtxReader(const NsysDatabase& db, NsysStrings& strings, NsysLaneMap& lanes,
                               NsysProgress& progress, trace::RunData& run,
                               const std::string& step_pattern)
    : db_(db),
      strings_(strings),
      lanes_(lanes),
      progress_(progress),
      run_(run),
      selector_(compile(db.path(), step_pattern)) {}

void NsysNvtxReader::read() {
    if (db_.has_table(kNvtx)) {
        // Old exports carry the text inline only; newer ones intern it through textId.
        std::string sql = "SELECT start, end, eventType, text, " +
                          db_.column_or(kNvtx, "textId", "NULL") + ", " +
                          db_.column_or(kNvtx, "globalTid", "0") + " FROM " + kNvtx +
                          " WHERE eventType IN (34, 59, 60)";
        std::int64_t open_ranges = 0;
        db_.for_each_row(sql, [&](sqlite3_stmt* s) {
            progress_.row();
            int type = sqlite3_column_int(s, 2);
            trace::Activity a;
            a.start_ns = sqlite3_column_int64(s, 0);
            if (type != kMark && sqlite3_column_type(s, 1) == SQLITE_NULL) {
                ++open_ranges;
                return true;
            }
            a.end_ns = type == kMark ? a.start_ns : sqlite3_column_int64(s, 1);
            const auto* text = sqlite3_column_text(s, 3);
            if (text != nullptr)
                a.name = run_.strings.intern(reinterpret_cast<const char*>(text));
            else if (sqlite3_column_type(s, 4) != SQLITE_NULL)
                a.name = strings_.intern(sqlite3_column_int64(s, 4));
            a.kind = type == kMark ? trace::ActivityKind::Marker : trace::ActivityKind::Range;
            const std::int64_t global_tid = sqlite3_column_int64(s, 5);
            a.lane = lanes_.thread(global_tid);
            if (type != kMark && selector_.may_frame(a.name, run_)) {
                candidates_.push_back({a.name, a.start_ns, a.end_ns, MarkerKind::Nvtx,
                                       static_cast<std::uint64_t>(global_tid), a.lane});
                activity_of_.push_back(run_.activities.size());
            }
            run_.activities.push_back(a);
            return true;
        });
        if (open_ranges > 0)
            run_.count_diagnostic("nvtx_unterminated_ranges", trace::Severity::DataLoss,
                                  static_cast<double>(open_ranges),
                                  "NVTX ranges without an end (capture stopped inside them)");
    }
    finish_steps();
}

// Which ranges are steps is known only once every range is read: the first preset
// that matches any of them wins, so a vLLM trace's execute_* markers are preferred
// to the ProfilerStep#N ranges around them.
void NsysNvtxReader::finish_steps() {
    std::vector<bool> chosen;
    std::vector<std::size_t> sources;
    std::vector<trace::Step> steps = selector_.select(candidates_, run_, &chosen, &sources);
    for (std::size_t i = 0; i < chosen.size(); ++i)
        if (chosen[i]) run_.activities[activity_of_[i]].lane = lanes_.step_track();
    // The CUDA activities are read before NVTX (nsys_importer.cpp): each iteration
    // extends over the GPU work its marker launched.
    std::vector<int> host_lane;
    for (std::size_t i : sources) host_lane.push_back(candidates_[i].host_lane);
    extend_to_gpu_work(run_, steps, host_lane);
    run_.steps.insert(run_.steps.end(), steps.begin(), steps.end());
}

}  // namespace tokenscope::import
