#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attribution.h"
#include "category.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// classify() for many activities: name rules are matched once per interned name,
// not once per kernel (a 10M-kernel run has only a few hundred distinct names).
class Classifier {
  public:
    // `driving_lane` as resolved by resolve_driving_lane(); -1 = no host work counts.
    Classifier(const trace::RunData& run, const AttributionOptions& options, int driving_lane);

    // Category of a GPU activity or H2H copy; nullopt for host activities (see classify()).
    std::optional<Category> gpu_category(const trace::Activity& a);
    // Bit i set = Category i active; the driving-lane rule included. 0 = contributes nothing.
    std::uint8_t mask_of(const trace::Activity& a);

    // The lane whose Api/Sync/Range activities count as cpu; -1 when there is none.
    int driving_lane() const { return driving_lane_; }

  private:
    std::optional<Category> kernel_category(const trace::Activity& a);
    std::optional<Category> by_name(std::uint32_t name);

    const trace::RunData& run_;
    double ridge_ = 0;
    std::vector<NameRule> rules_;           // patterns lower-cased
    std::vector<std::uint8_t> name_cache_;  // per name id: 0 = not looked up, 1 = no rule, 2+c
    int driving_lane_ = -1;
};

// The options' lane if it is a CPU thread, else (for -1) the CPU thread lane with the
// most Api/Sync activities, else the one with the most ranges; -1 when no CPU lane has any.
// Throws trace::Cancelled once `stop` is requested.
int resolve_driving_lane(const trace::RunData& run, int requested,
                         const trace::StopToken& stop = {});
// The choice itself from per-lane counts (indexed by lane) of Api/Sync activities and of
// ranges on CPU thread lanes: what a run left in its file reads from its stored totals.
int driving_lane_of_counts(const std::vector<std::int64_t>& api,
                           const std::vector<std::int64_t>& ranges);

}  // namespace tokenscope::analysis
