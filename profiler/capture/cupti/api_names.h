#pragma once

#include <cupti.h>

#include <cstdint>
#include <string>
#include <vector>

#include "store/run_writer.h"

namespace tokenscope::capture::cupti {

// Interned names of runtime and driver API calls by callback id, looked up once per
// id through cuptiGetCallbackName (which needs no driver) with the "_v7000" version
// suffix cut, so "cudaLaunchKernel" reads as in Nsight Systems.
class ApiNames {
  public:
    explicit ApiNames(store::RunWriter& writer) : writer_(writer) {}

    std::uint32_t name(CUpti_CallbackDomain domain, std::uint32_t cbid) {
        auto& slots = domain == CUPTI_CB_DOMAIN_DRIVER_API ? driver_ : runtime_;
        if (cbid < slots.size() && slots[cbid].known) return slots[cbid].id;
        return resolve(domain, cbid).id;
    }
    // Whether a call of that id blocks on the GPU (its SYNCHRONIZATION record then
    // belongs on the calling thread's lane).
    bool is_sync(CUpti_CallbackDomain domain, std::uint32_t cbid) {
        auto& slots = domain == CUPTI_CB_DOMAIN_DRIVER_API ? driver_ : runtime_;
        if (cbid < slots.size() && slots[cbid].known) return slots[cbid].sync;
        return resolve(domain, cbid).sync;
    }

    // Whether a call of that id launches kernels that carry its correlation id (a
    // graph launch's kernels all carry the launch's).
    static bool is_kernel_launch(CUpti_CallbackDomain domain, std::uint32_t cbid);

    // "cudaLaunchKernel_v7000" -> "cudaLaunchKernel"; "cuMemcpy_v2" keeps its suffix
    // as it is part of the driver's symbol.
    static std::string display_name(const char* cupti_name);

  private:
    struct Slot {
        bool known = false;
        bool sync = false;
        std::uint32_t id = 0;
    };
    const Slot& resolve(CUpti_CallbackDomain domain, std::uint32_t cbid);

    store::RunWriter& writer_;
    std::vector<Slot> runtime_;
    std::vector<Slot> driver_;
};

}  // namespace tokenscope::capture::cupti
