#pragma once

#include <cstdint>
#include <vector>

#include "kernel_observer.h"
#include "work_meter.h"

namespace tokenscope::kernels::cpu {

// Runs one kernel body with a fresh WorkMeter, tells the observer around it and
// logs the counted work, so no kernel can skip either.
class KernelRunner {
  public:
    KernelRunner(std::uint64_t dtype_bytes, KernelObserver* observer, std::vector<KernelSpec>& log)
        : dtype_bytes_(dtype_bytes), observer_(observer), log_(log) {}

    template <class Body>
    void run(KernelOp op, bool draft, std::int32_t layer, Body&& body) {
        WorkMeter meter(op, draft, layer, dtype_bytes_);
        if (observer_) observer_->kernel_begin();
        body(meter);
        if (observer_) observer_->kernel_end(meter.spec());
        log_.push_back(meter.spec());
    }

  private:
    std::uint64_t dtype_bytes_;
    KernelObserver* observer_;
    std::vector<KernelSpec>& log_;
};

}  // namespace tokenscope::kernels::cpu
