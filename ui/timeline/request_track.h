#pragma once

#include <cstdint>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::ui {

// The request track of a joined run (client tokens over engine iterations, docs/engine-traces.md,
// Client and server together): each token step's sub-row (requests packed so that their spans do
// not overlap, at most kMaxSlots rows), its ITL and its iteration (analysis' token_iterations
// rule). Built with the TimelineIndex, off the GUI thread; empty for runs that lack either tokens
// or iterations, whose single step track stays as it was.
class RequestTrack {
  public:
    static constexpr int kMaxSlots = 8;

    explicit RequestTrack(const trace::RunData& run);

    bool shown() const { return slots_ > 0; }
    int slot_count() const { return slots_; }
    bool is_token(std::size_t step) const { return step < slot_.size() && slot_[step] >= 0; }
    // -1 for steps that are not tokens.
    int slot_of(std::size_t step) const { return is_token(step) ? slot_[step] : -1; }
    // -1 for first tokens and non-tokens.
    std::int64_t itl_ns(std::size_t step) const { return step < itl_.size() ? itl_[step] : -1; }
    // Index in run.steps of the token's iteration; -1 when none.
    std::int32_t iteration_of(std::size_t step) const {
        return step < links_.size() ? links_[step] : -1;
    }
    // Per run.steps entry, as analysis::token_itl_ns and token_iterations give them.
    const std::vector<std::int64_t>& itls() const { return itl_; }
    const std::vector<std::int32_t>& links() const { return links_; }
    // Median ITL over the run's tokens (0 when none): the track colours tokens against it.
    std::int64_t median_itl_ns() const { return median_itl_; }

  private:
    void pack(const trace::RunData& run);

    std::vector<std::int8_t> slot_;  // per step; -1 = not a token
    std::vector<std::int64_t> itl_;
    std::vector<std::int32_t> links_;
    std::int64_t median_itl_ = 0;
    int slots_ = 0;
};

}  // namespace tokenscope::ui
