#pragma once

#include <QString>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::ui {

// Find by name in a run whose activities stayed in its file (trace::RunData::in_file): the
// names that match (case-insensitive substring, as TimelineSearch matches) are picked from
// the run's names in memory, then one pass over every lane (store::LaneStream) collects the
// activities that carry them, at most kMaxMatches, in start order. The pass runs on a
// worker (scan()); next/previous/seek then step through the matches as TimelineSearch
// steps through indices, each match named by its lane and time, which the view reveals
// (TimelineView::revealAt) once the activities there are read.
class FileSearch {
  public:
    struct Match {
        std::uint16_t lane = 0;
        std::int64_t start_ns = 0;
        std::int64_t end_ns = 0;
        bool operator==(const Match&) const = default;
    };
    static constexpr std::size_t kMaxMatches = 1'000'000;

    // The matches of `text` in run `run` of the .tokenscope file at `path`. Throws
    // StoreError for a damaged file, trace::Cancelled on `stop`.
    static std::vector<Match> scan(const std::string& path, const trace::RunData& run,
                                   const QString& text, const trace::StopToken& stop = {});

    // The result of scan() for `text`, or none (a new text, another run).
    void set(const QString& text, std::vector<Match> matches);
    void clear() { set({}, {}); }
    const QString& text() const { return text_; }
    std::size_t count() const { return matches_.size(); }
    // Moves to the next/previous match (wrapping) and returns it; count() must be > 0.
    const Match& next();
    const Match& previous();
    // Moves to the first match starting at or after t (the first when none does).
    const Match& seek(std::int64_t t);
    // 1-based position of the current match; 0 before the first move.
    std::size_t position() const { return current_ < matches_.size() ? current_ + 1 : 0; }

  private:
    QString text_;
    std::vector<Match> matches_;
    std::size_t current_ = static_cast<std::size_t>(-1);
};

}  // namespace tokenscope::ui
