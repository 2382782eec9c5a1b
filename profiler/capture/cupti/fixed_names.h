#pragma once

#include <cupti_activity.h>

#include <cstdint>
#include <vector>

#include "store/run_writer.h"
#include "trace/activity.h"

namespace tokenscope::capture::cupti {

// The names of activities whose CUPTI records carry none (copies, memsets,
// synchronizations), interned once per run, and what CUPTI's copy and overhead kinds
// mean in the run.
class FixedNames {
  public:
    explicit FixedNames(store::RunWriter& writer);

    std::uint32_t copy(trace::CopyKind kind) const { return ids_[static_cast<std::size_t>(kind)]; }
    // By CUpti_ActivitySynchronizationType; an unknown type reads as "Synchronization".
    std::uint32_t sync(std::uint32_t cupti_type) const {
        return ids_[kSyncSlot + (cupti_type < kSyncTypes ? cupti_type : 0)];
    }
    std::uint32_t memset() const { return ids_[kMemsetSlot]; }

    // HtoA counts as H2D, array-to-array as D2D and so on; an unknown kind as None.
    static trace::CopyKind copy_kind(std::uint8_t cupti_kind);
    static const char* overhead_name(CUpti_ActivityOverheadKind kind);

  private:
    static constexpr std::size_t kSyncSlot = 6;  // after the six copy kinds
    static constexpr std::size_t kSyncTypes = 5;
    static constexpr std::size_t kMemsetSlot = kSyncSlot + kSyncTypes;

    std::vector<std::uint32_t> ids_;
};

}  // namespace tokenscope::capture::cupti
