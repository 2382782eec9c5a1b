#pragma once

#include "kernels/kernel_spec.h"

namespace tokenscope::kernels::cpu {

// Told around every kernel the reference executes, in execution order: the cpu
// backend timestamps each one here.
class KernelObserver {
  public:
    virtual ~KernelObserver() = default;
    virtual void kernel_begin() = 0;
    // `work` holds the kernel's name fields and the FLOPs and bytes its loops counted.
    virtual void kernel_end(const KernelSpec& work) = 0;
};

}  // namespace tokenscope::kernels::cpu
