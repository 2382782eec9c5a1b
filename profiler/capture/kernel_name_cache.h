#pragma once

#include <array>
#include <cstdint>

#include "kernels/kernel_spec.h"
#include "store/run_writer.h"

namespace tokenscope::capture {

// Interns a workload kernel's name once per (op, draft) pair: a decode run emits
// hundreds of thousands of kernels from a couple of dozen names.
class KernelNameCache {
  public:
    explicit KernelNameCache(store::RunWriter& writer) : writer_(writer) {}

    std::uint32_t operator()(const kernels::KernelSpec& kernel) {
        const std::size_t slot = static_cast<std::size_t>(kernel.op) * 2 + (kernel.draft ? 1 : 0);
        if (ids_[slot] == 0) ids_[slot] = writer_.intern(kernel.name());
        return ids_[slot];
    }

  private:
    static constexpr std::size_t kSlots =
        2 * (static_cast<std::size_t>(kernels::KernelOp::SpecVerify) + 1);

    store::RunWriter& writer_;
    std::array<std::uint32_t, kSlots> ids_{};  // 0 = not interned yet
};

}  // namespace tokenscope::capture
