#include "nsys_nvtx_reader.h"

#include <algorithm>
#include <cctype>

#include "import/import_error.h"
#include "nsys_database.h"
#include "nsys_lane_map.h"
#include "nsys_progress.h"
#include "nsys_strings.h"

namespace tokenscope::import {
namespace {

constexpr const char* kNvtx = "NVTX_EVENTS";

// "ProfilerStep#12" -> 12; -1 when the name does not end in a number.
std::int64_t trailing_number(std::string_view name) {
    std::size_t i = name.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1]))) --i;
    if (i == name.size() || name.size() - i > 9) return -1;
    return std::stoll(std::string(name.substr(i)));
}

std::regex compile(const std::string& path, const std::string& pattern) {
    try {
        return std::regex(pattern, std::regex::ECMAScript);
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
      pattern_text_(step_pattern),
      pattern_(compile(db.path(), step_pattern)) {}

bool NsysNvtxReader::is_step(std::uint32_t name) {
    auto it = step_names_.find(name);
    if (it == step_names_.end()) {
        std::string text(run_.strings.str(name));
        it = step_names_.emplace(name, std::regex_match(text, pattern_)).first;
    }
    return it->second;
}

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
            bool step = type != kMark && is_step(a.name);
            a.lane = step ? lanes_.step_track() : lanes_.thread(sqlite3_column_int64(s, 5));
            run_.activities.push_back(a);
            if (step)
                steps_.emplace_back(
                    trace::Step{0, 0, trace::Phase::Iteration, a.start_ns, a.end_ns, 0}, a.name);
            return true;
        });
        if (open_ranges > 0)
            run_.count_diagnostic("nvtx_unterminated_ranges", trace::Severity::DataLoss,
                                  static_cast<double>(open_ranges),
                                  "NVTX ranges without an end (capture stopped inside them)");
    }
    finish_steps();
}

void NsysNvtxReader::finish_steps() {
    if (steps_.empty()) {
        run_.count_diagnostic("no_steps", trace::Severity::Info, 0,
                              "no NVTX range matched the step pattern '" + pattern_text_ +
                                  "', so the run has no steps; pass another pattern to frame "
                                  "iterations");
        return;
    }
    std::sort(steps_.begin(), steps_.end(),
              [](const auto& a, const auto& b) { return a.first.start_ns < b.first.start_ns; });
    // Index = the number in the range name (ProfilerStep#N) when every step has
    // a distinct one, else the position in time.
    std::vector<std::int64_t> numbers;
    for (const auto& [step, name] : steps_)
        numbers.push_back(trailing_number(run_.strings.str(name)));
    std::vector<std::int64_t> sorted = numbers;
    std::sort(sorted.begin(), sorted.end());
    bool use_numbers =
        sorted.front() >= 0 && std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
    for (std::size_t i = 0; i < steps_.size(); ++i) {
        trace::Step step = steps_[i].first;
        step.index =
            static_cast<std::int32_t>(use_numbers ? numbers[i] : static_cast<std::int64_t>(i));
        run_.steps.push_back(step);
    }
}

}  // namespace tokenscope::import
