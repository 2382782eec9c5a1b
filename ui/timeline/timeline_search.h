#pragma once

#include <QString>
#include <cstdint>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::ui {

// Find by name (case-insensitive substring) with next/previous in time order.
// Names are matched once per interned string, then activities by id.
class TimelineSearch {
  public:
    // Returns the number of matches (capped at kMaxMatches).
    std::size_t set_query(const trace::RunData* run, const QString& text);
    std::size_t count() const { return matches_.size(); }
    // Moves to the next/previous match (wrapping) and returns its activity index.
    std::size_t next();
    std::size_t previous();
    // Moves to the first match starting at or after t (the first match when none does)
    // and returns its activity index; the position is then that match's.
    std::size_t seek(std::int64_t t);
    // 1-based position of the current match; 0 before the first next().
    std::size_t position() const { return current_ < matches_.size() ? current_ + 1 : 0; }

    static constexpr std::size_t kMaxMatches = 1'000'000;

  private:
    const trace::RunData* run_ = nullptr;
    std::vector<std::uint32_t> matches_;  // activity indices by start time
    std::size_t current_ = static_cast<std::size_t>(-1);
};

}  // namespace tokenscope::ui
